import type {
  CashReceiptStatus,
  CashReceiptTransactionType,
  CashReceiptType,
  CashReceiptView,
} from '@payhook/contracts';

/** A cash_receipts row as the service sees it; the buyer's number stays sealed here. */
export interface CashReceiptRecord {
  id: string;
  merchantId: string;
  livemode: boolean;
  paymentId: string;
  refundId: string | null;
  orderId: string;
  transactionType: CashReceiptTransactionType;
  type: CashReceiptType;
  /** Sealed under SECRETS_KEY, bound to the payment; null on a self-issued receipt (the tax office's public number). */
  identityNumberSealed: string | null;
  /** Every digit but the last four as `*`: all that a merchant ever sees of it. */
  identityNumberMasked: string;
  selfIssued: boolean;
  amount: number;
  taxFreeAmount: number;
  vat: number;
  suppliedAmount: number;
  status: CashReceiptStatus;
  issueNumber: string | null;
  failureReason: string | null;
  createdAt: Date;
  issuedAt: Date | null;
  failedAt: Date | null;
}

/** The columns every statement that returns cash receipts selects; toCashReceiptRecord reads them. */
export const CASH_RECEIPT_COLUMNS = `id, merchant_id, livemode, payment_id, refund_id, order_id, transaction_type, type,
  identity_number_sealed, identity_number_masked, self_issued, amount, tax_free_amount, vat, supplied_amount, status,
  issue_number, failure_reason, created_at, issued_at, failed_at`;

export interface CashReceiptRow {
  id: string;
  merchant_id: string;
  livemode: boolean;
  payment_id: string;
  refund_id: string | null;
  order_id: string;
  transaction_type: CashReceiptTransactionType;
  type: CashReceiptType;
  identity_number_sealed: string | null;
  identity_number_masked: string;
  self_issued: boolean;
  amount: string;
  tax_free_amount: string;
  vat: string;
  supplied_amount: string;
  status: CashReceiptStatus;
  issue_number: string | null;
  failure_reason: string | null;
  created_at: Date | string;
  issued_at: Date | string | null;
  failed_at: Date | string | null;
}

/** A timestamp as a row gives it: a Date from a table, an ISO text when the row came through row_to_json. */
const instant = (value: Date | string | null): Date | null => (value === null ? null : new Date(value));

export function toCashReceiptRecord(row: CashReceiptRow): CashReceiptRecord {
  return {
    id: row.id,
    merchantId: row.merchant_id,
    livemode: row.livemode,
    paymentId: row.payment_id,
    refundId: row.refund_id,
    orderId: row.order_id,
    transactionType: row.transaction_type,
    type: row.type,
    identityNumberSealed: row.identity_number_sealed,
    identityNumberMasked: row.identity_number_masked,
    selfIssued: row.self_issued,
    // bigint arrives as text (a number through row_to_json); receipts never exceed their payment (max 10^10).
    amount: Number(row.amount),
    taxFreeAmount: Number(row.tax_free_amount),
    vat: Number(row.vat),
    suppliedAmount: Number(row.supplied_amount),
    status: row.status,
    issueNumber: row.issue_number,
    failureReason: row.failure_reason,
    createdAt: instant(row.created_at)!,
    issuedAt: instant(row.issued_at),
    failedAt: instant(row.failed_at),
  };
}

/** The receipt as the merchant API, its events and the console show it: the buyer's number masked. */
export function toCashReceiptView(receipt: CashReceiptRecord): CashReceiptView {
  return {
    id: receipt.id,
    paymentId: receipt.paymentId,
    refundId: receipt.refundId,
    orderId: receipt.orderId,
    transactionType: receipt.transactionType,
    type: receipt.type,
    identityNumber: receipt.identityNumberMasked,
    selfIssued: receipt.selfIssued,
    amount: receipt.amount,
    taxFreeAmount: receipt.taxFreeAmount,
    vat: receipt.vat,
    suppliedAmount: receipt.suppliedAmount,
    status: receipt.status,
    issueNumber: receipt.issueNumber,
    failureReason: receipt.failureReason,
    livemode: receipt.livemode,
    createdAt: receipt.createdAt.toISOString(),
    issuedAt: receipt.issuedAt?.toISOString() ?? null,
    failedAt: receipt.failedAt?.toISOString() ?? null,
  };
}
