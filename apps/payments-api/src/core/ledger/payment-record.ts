import type { CashReceiptType, EscrowStatus, Metadata, PaymentStatus } from '@payhook/contracts';

/** A payments row as the service sees it. */
export interface PaymentRecord {
  id: string;
  merchantId: string;
  livemode: boolean;
  orderId: string;
  customerId: string;
  amount: number;
  currency: 'KRW';
  status: PaymentStatus;
  returnUrl: string;
  paySuffix: string;
  expiresAt: Date;
  createdAt: Date;
  completedAt: Date | null;
  /** The sum of its succeeded refunds. */
  refundedAmount: number;
  /** The part exempt from VAT, 0 to amount (its VAT and supplied value follow: tax-breakdown.ts). */
  taxFreeAmount: number;
  /** The merchant's own keys, as create gave them; `{}` when none. */
  metadata: Metadata;
  /** The cash receipt last asked for (create, the payment screen, the API), the number masked; null when none. */
  cashReceiptAsked: { type: CashReceiptType; identityNumber: string } | null;
  /** Its escrow (구매안전서비스), null for a payment without one. The buyer's address and link stay in the row. */
  escrow: EscrowRecord | null;
}

/** A payment's escrow as the ledger reads it. */
export interface EscrowRecord {
  status: EscrowStatus;
  carrier: string | null;
  trackingNumber: string | null;
  shippedAt: Date | null;
  autoConfirmAt: Date | null;
  confirmedAt: Date | null;
  /** Whether the auto-confirm day confirmed it; null unless confirmed. */
  autoConfirmed: boolean | null;
  rejectedAt: Date | null;
  rejectReason: string | null;
}

/** Status as callers see it: a pending payment past expiresAt already counts as expired. */
export function effectiveStatus(payment: PaymentRecord, now = new Date()): PaymentStatus {
  return payment.status === 'pending' && payment.expiresAt <= now ? 'expired' : payment.status;
}

/** The columns every statement that returns payments selects; toPaymentRecord reads them. */
export const PAYMENT_COLUMNS = `id, merchant_id, livemode, order_id, customer_id, amount, currency, status,
  return_url, pay_suffix, expires_at, created_at, completed_at, refunded_amount, tax_free_amount, metadata,
  cash_receipt_type, cash_receipt_identity_masked, escrow_status, escrow_carrier, escrow_tracking_number,
  escrow_shipped_at, escrow_auto_confirm_at, escrow_confirmed_at, escrow_auto_confirmed, escrow_rejected_at,
  escrow_reject_reason`;

/** A list of columns (PAYMENT_COLUMNS, REFUND_COLUMNS) each qualified by `alias`, for a statement that joins. */
export function qualified(columns: string, alias: string): string {
  return columns
    .split(',')
    .map((column) => `${alias}.${column.trim()}`)
    .join(', ');
}

export interface PaymentRow {
  id: string;
  merchant_id: string;
  livemode: boolean;
  order_id: string;
  customer_id: string;
  amount: string;
  currency: 'KRW';
  status: PaymentStatus;
  return_url: string;
  pay_suffix: string;
  expires_at: Date;
  created_at: Date;
  completed_at: Date | null;
  refunded_amount: string;
  tax_free_amount: string;
  /** jsonb, parsed by the driver. */
  metadata: Metadata;
  cash_receipt_type: CashReceiptType | null;
  cash_receipt_identity_masked: string | null;
  escrow_status: EscrowStatus | null;
  escrow_carrier: string | null;
  escrow_tracking_number: string | null;
  escrow_shipped_at: Date | null;
  escrow_auto_confirm_at: Date | null;
  escrow_confirmed_at: Date | null;
  escrow_auto_confirmed: boolean | null;
  escrow_rejected_at: Date | null;
  escrow_reject_reason: string | null;
}

export function toPaymentRecord(row: PaymentRow): PaymentRecord {
  return {
    id: row.id,
    merchantId: row.merchant_id,
    livemode: row.livemode,
    orderId: row.order_id,
    customerId: row.customer_id,
    // bigint arrives as text; amounts stay below 2^53 (max 10^10), so a number is exact.
    amount: Number(row.amount),
    currency: row.currency,
    status: row.status,
    returnUrl: row.return_url,
    paySuffix: row.pay_suffix,
    expiresAt: row.expires_at,
    createdAt: row.created_at,
    completedAt: row.completed_at,
    refundedAmount: Number(row.refunded_amount),
    taxFreeAmount: Number(row.tax_free_amount),
    metadata: row.metadata,
    cashReceiptAsked:
      row.cash_receipt_type && row.cash_receipt_identity_masked
        ? { type: row.cash_receipt_type, identityNumber: row.cash_receipt_identity_masked }
        : null,
    escrow: row.escrow_status
      ? {
          status: row.escrow_status,
          carrier: row.escrow_carrier,
          trackingNumber: row.escrow_tracking_number,
          shippedAt: row.escrow_shipped_at,
          autoConfirmAt: row.escrow_auto_confirm_at,
          confirmedAt: row.escrow_confirmed_at,
          autoConfirmed: row.escrow_auto_confirmed,
          rejectedAt: row.escrow_rejected_at,
          rejectReason: row.escrow_reject_reason,
        }
      : null,
  };
}
