import type { CreatedPaymentView, PaymentView } from '@payhook/contracts';
import { effectiveStatus, paymentBreakdown, type PaymentRecord } from '../../core/ledger';

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
    escrow: null,
  };
}
