import type { MerchantScope } from '@payhook/auth';
import { CURRENCY, newId, type Metadata } from '@payhook/contracts';
import type { RefundRecord } from '../../core/ledger';

/** What a new refund is made of, whichever way it goes: at once (test mode) or through the operator (live). */
export interface NewRefund {
  scope: MerchantScope;
  paymentId: string;
  orderId: string;
  amount: number;
  /** As held: the one asked for, or the amount's share of what is left tax-free. */
  taxFreeAmount: number;
  reason: string | null;
  metadata: Metadata;
  createdAt: Date;
}

/**
 * A refund as it is inserted: pending until the money is sent (a test refund's at once, a live one's
 * by the operator) to the account `seal` seals for its id (live; the account is kept only while the
 * refund is pending).
 */
export function pendingRefund(refund: NewRefund, seal: (refundId: string) => string | null): RefundRecord {
  const id = newId('refund');
  return {
    id,
    paymentId: refund.paymentId,
    merchantId: refund.scope.merchantId,
    livemode: refund.scope.livemode,
    orderId: refund.orderId,
    amount: refund.amount,
    currency: CURRENCY,
    reason: refund.reason,
    status: 'pending',
    refundAccountSealed: seal(id),
    bankTransactionId: null,
    failureReason: null,
    createdAt: refund.createdAt,
    succeededAt: null,
    failedAt: null,
    taxFreeAmount: refund.taxFreeAmount,
    // Fixed when it succeeds, by the payment's running totals (the ledger's succeed).
    vat: null,
    suppliedAmount: null,
    metadata: refund.metadata,
  };
}
