/** A deposit as the bank reported it and what payhook did with it. */
export interface DepositView {
  id: string;
  livemode: boolean;
  bankTransactionId: string;
  amount: number;
  /** As the bank reported it (null when it gave none). */
  depositCode: string | null;
  depositorName: string;
  receivedAt: string;
  /** matched: it completed its payment. review: a person decides (see reviewCaseId). */
  outcome: 'matched' | 'review';
  paymentId: string | null;
  reviewCaseId: string | null;
  reviewReason: string | null;
  createdAt: string;
}
