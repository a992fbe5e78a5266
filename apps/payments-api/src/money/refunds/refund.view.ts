import type { RefundView } from '@payhook/contracts';
import type { RefundRecord } from '../../core/ledger';

/** The payer's bank account a live refund is sent to; only the operator sees it. */
export interface RefundAccount {
  bank: string;
  accountNumber: string;
  holderName: string;
}

/** What the operator sees of a refund: the merchant's view plus where the money goes and its bank transfer. */
export interface AdminRefundView extends RefundView {
  /** Only while the refund is pending: succeeding or failing it forgets the account (null after). */
  refundAccount: RefundAccount | null;
  bankTransactionId: string | null;
}

/** The refund as the merchant API shows it: never the refund account. */
export function toRefundView(refund: RefundRecord): RefundView {
  return {
    id: refund.id,
    paymentId: refund.paymentId,
    orderId: refund.orderId,
    amount: refund.amount,
    currency: refund.currency,
    reason: refund.reason,
    status: refund.status,
    livemode: refund.livemode,
    createdAt: refund.createdAt.toISOString(),
    succeededAt: refund.succeededAt?.toISOString() ?? null,
    failedAt: refund.failedAt?.toISOString() ?? null,
    failureReason: refund.failureReason,
    taxFreeAmount: refund.taxFreeAmount,
    vat: refund.vat,
    suppliedAmount: refund.suppliedAmount,
    metadata: refund.metadata,
  };
}

export function toAdminRefundView(refund: RefundRecord, refundAccount: RefundAccount | null): AdminRefundView {
  return { ...toRefundView(refund), refundAccount, bankTransactionId: refund.bankTransactionId };
}
