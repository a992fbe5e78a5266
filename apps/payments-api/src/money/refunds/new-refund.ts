import type { MerchantScope } from '@payhook/auth';
import { CURRENCY, newId } from '@payhook/contracts';
import type { RefundRecord } from '../../core/ledger';

/** What a new refund is made of, whichever way it goes: at once (test mode) or through the operator (live). */
export interface NewRefund {
  scope: MerchantScope;
  paymentId: string;
  orderId: string;
  amount: number;
  reason: string | null;
  createdAt: Date;
}

/** A test refund: succeeded the moment it is made. */
export function succeededRefund(refund: NewRefund): RefundRecord {
  return recordOf(newId('refund'), refund, { status: 'succeeded', succeededAt: refund.createdAt });
}

/**
 * A live refund, pending until the operator has sent the money to the account `seal` seals for its id
 * (the account is kept only while the refund is pending).
 */
export function pendingRefund(refund: NewRefund, seal: (refundId: string) => string | null): RefundRecord {
  const id = newId('refund');
  return recordOf(id, refund, { status: 'pending', refundAccountSealed: seal(id) });
}

function recordOf(id: string, refund: NewRefund, state: Partial<RefundRecord>): RefundRecord {
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
    refundAccountSealed: null,
    bankTransactionId: null,
    failureReason: null,
    createdAt: refund.createdAt,
    succeededAt: null,
    failedAt: null,
    ...state,
  };
}
