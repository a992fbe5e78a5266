/** A receipt's life: `pending` until the tax office answers (at once in test mode). */
export const CASH_RECEIPT_STATUSES = ['pending', 'issued', 'failed'] as const;
export type CashReceiptStatus = (typeof CASH_RECEIPT_STATUSES)[number];

/** 소득공제 (income deduction, for a person) or 지출증빙 (expense proof, for a business). */
export const CASH_RECEIPT_TYPES = ['income_deduction', 'expense_proof'] as const;
export type CashReceiptType = (typeof CASH_RECEIPT_TYPES)[number];

/** `issue` covers a payment; `cancel` takes back what one of its refunds returned. */
export type CashReceiptTransactionType = 'issue' | 'cancel';

/** The tax office's own number for a receipt issued without a buyer's number (자진발급). */
export const SELF_ISSUE_IDENTITY_NUMBER = '0100001234';

/** A merchant marked cashReceiptRequired issues unasked for a payment of at least this much. */
export const SELF_ISSUE_MIN_AMOUNT = 100_000;

/** The test-mode number whose receipt fails, so that merchants can see a failure. */
export const FAILING_TEST_IDENTITY_NUMBER = '01000000000';

/** How a test receipt fails with FAILING_TEST_IDENTITY_NUMBER, and how a tax office's refusal reads. */
export const IDENTITY_REJECTED = 'identity_rejected';

/**
 * A cash receipt (현금영수증) as the merchant API, its events and the console show it: the buyer's
 * number masked (every digit but the last four), whole only in the operator's queue.
 */
export interface CashReceiptView {
  id: string;
  paymentId: string;
  /** The refund a cancel receipt takes back; null on an issue receipt. */
  refundId: string | null;
  orderId: string;
  transactionType: CashReceiptTransactionType;
  type: CashReceiptType;
  identityNumber: string;
  /** Issued unasked, to the tax office's own number, for a merchant that must (의무발행업종). */
  selfIssued: boolean;
  amount: number;
  taxFreeAmount: number;
  vat: number;
  suppliedAmount: number;
  status: CashReceiptStatus;
  /** The tax office's approval number; null until issued. */
  issueNumber: string | null;
  failureReason: string | null;
  livemode: boolean;
  createdAt: string;
  issuedAt: string | null;
  failedAt: string | null;
}

/** What the buyer or the merchant asked for, before it is a receipt (create's `cashReceipt`). */
export interface CashReceiptRequest {
  type: CashReceiptType;
  identityNumber: string;
}
