import type { CreatedPaymentView, EscrowView, PaymentView } from '@payhook/contracts';
import { effectiveStatus, paymentBreakdown, type EscrowRecord, type PaymentRecord } from '../../core/ledger';

export function payUrlOf(payUrlBase: string, suffix: string): string {
  return `${payUrlBase.replace(/\/+$/, '')}/p/${suffix}`;
}

export function toCreatedView(payment: PaymentRecord, payUrlBase: string): CreatedPaymentView {
  return {
    id: payment.id,
    orderId: payment.orderId,
    amount: payment.amount,
    currency: payment.currency,
    status: effectiveStatus(payment),
    payUrl: payUrlOf(payUrlBase, payment.paySuffix),
    expiresAt: payment.expiresAt.toISOString(),
  };
}

export function toPaymentView(payment: PaymentRecord, payUrlBase: string): PaymentView {
  return {
    ...toCreatedView(payment, payUrlBase),
    createdAt: payment.createdAt.toISOString(),
    completedAt: payment.completedAt?.toISOString() ?? null,
    livemode: payment.livemode,
    refundedAmount: payment.refundedAmount,
    // The split of the whole amount, as created (refunds carry their own).
    ...paymentBreakdown(payment.amount, payment.taxFreeAmount),
    metadata: payment.metadata,
    escrow: payment.escrow && toEscrowView(payment.escrow),
  };
}

/** A payment's escrow as every read shows it: no buyer's address, no link. */
export function toEscrowView(escrow: EscrowRecord): EscrowView {
  return {
    status: escrow.status,
    carrier: escrow.carrier,
    trackingNumber: escrow.trackingNumber,
    shippedAt: escrow.shippedAt?.toISOString() ?? null,
    autoConfirmAt: escrow.autoConfirmAt?.toISOString() ?? null,
    confirmedAt: escrow.confirmedAt?.toISOString() ?? null,
    rejectedAt: escrow.rejectedAt?.toISOString() ?? null,
    rejectReason: escrow.rejectReason,
  };
}
