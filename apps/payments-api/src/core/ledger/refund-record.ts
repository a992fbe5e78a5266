import type { Metadata, RefundStatus } from '@payhook/contracts';

/** A refunds row as the service sees it; the refund account stays sealed here. */
export interface RefundRecord {
  id: string;
  paymentId: string;
  merchantId: string;
  livemode: boolean;
  orderId: string;
  amount: number;
  currency: 'KRW';
  reason: string | null;
  status: RefundStatus;
  refundAccountSealed: string | null;
  bankTransactionId: string | null;
  failureReason: string | null;
  createdAt: Date;
  succeededAt: Date | null;
  failedAt: Date | null;
  /** Its part exempt from VAT, fixed when it is made (explicit, or its share of what is left). */
  taxFreeAmount: number;
  /** Its VAT and supplied value, fixed when it succeeds (by the payment's running totals); null until then. */
  vat: number | null;
  suppliedAmount: number | null;
  /** The merchant's own keys; `{}` when none were given. */
  metadata: Metadata;
}

/** The columns every statement that returns refunds selects; toRefundRecord reads them. */
export const REFUND_COLUMNS = `id, payment_id, merchant_id, livemode, order_id, amount, currency, reason, status,
  refund_account_sealed, bank_transaction_id, failure_reason, created_at, succeeded_at, failed_at, tax_free_amount,
  vat, supplied_amount, metadata`;

export interface RefundRow {
  id: string;
  payment_id: string;
  merchant_id: string;
  livemode: boolean;
  order_id: string;
  amount: string;
  currency: 'KRW';
  reason: string | null;
  status: RefundStatus;
  refund_account_sealed: string | null;
  bank_transaction_id: string | null;
  failure_reason: string | null;
  created_at: Date;
  succeeded_at: Date | null;
  failed_at: Date | null;
  tax_free_amount: string;
  vat: string | null;
  supplied_amount: string | null;
  /** jsonb, parsed by the driver. */
  metadata: Metadata;
}

export function toRefundRecord(row: RefundRow): RefundRecord {
  return {
    id: row.id,
    paymentId: row.payment_id,
    merchantId: row.merchant_id,
    livemode: row.livemode,
    orderId: row.order_id,
    // bigint arrives as text; refunds never exceed their payment (max 10^10), so a number is exact.
    amount: Number(row.amount),
    currency: row.currency,
    reason: row.reason,
    status: row.status,
    refundAccountSealed: row.refund_account_sealed,
    bankTransactionId: row.bank_transaction_id,
    failureReason: row.failure_reason,
    createdAt: row.created_at,
    succeededAt: row.succeeded_at,
    failedAt: row.failed_at,
    taxFreeAmount: Number(row.tax_free_amount),
    vat: row.vat === null ? null : Number(row.vat),
    suppliedAmount: row.supplied_amount === null ? null : Number(row.supplied_amount),
    metadata: row.metadata,
  };
}
