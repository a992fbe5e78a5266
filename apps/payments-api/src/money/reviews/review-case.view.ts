import type { ReviewAction } from '@payhook/contracts';
import type { ReviewSource } from '../../core/ledger';

export type { ReviewSource } from '../../core/ledger';

export { REVIEW_ACTIONS, type ReviewAction } from '@payhook/contracts';

/**
 * Why money could not be matched on its own. Deposits: `deposit_code_missing`, `deposit_code_unknown`,
 * `amount_short`, `amount_over`, `payment_<status>` (the payment had already completed, failed, been canceled
 * or expired). Vouchers: `voucher_over_cover` (the PINs given were worth more than the amount). Escrow:
 * `escrow_rejected` (the buyer refused the goods; the payout stays held, the amount is what the escrow holds).
 */
export type ReviewReason = string;

/** The deposit that opened a case, as the bank reported it. */
export interface ReviewDepositView {
  id: string;
  bankTransactionId: string;
  amount: number;
  depositCode: string | null;
  depositorName: string;
  receivedAt: string;
}

export interface ReviewCaseView {
  id: string;
  status: 'open' | 'resolved';
  livemode: boolean;
  source: ReviewSource;
  reason: ReviewReason;
  /** The money in question, in won: the deposit, or the voucher value above the amount. */
  amount: number;
  merchantId: string | null;
  paymentId: string | null;
  deposit: ReviewDepositView | null;
  createdAt: string;
  resolution: {
    action: ReviewAction;
    resolvedBy: string;
    note: string | null;
    /** Money owed back to the payer (a refund, or a deposit's excess on complete); recorded here, moved by a person. */
    refundAmount: number | null;
    resolvedAt: string;
  } | null;
}
