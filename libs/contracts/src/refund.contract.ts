import type { CURRENCY } from './payment.contract';

/** `pending` only for live refunds, until the operator has sent the money. */
export const REFUND_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

/** The refund as create, get and list return it; the refund account is never echoed. */
export interface RefundView {
  id: string;
  paymentId: string;
  orderId: string;
  amount: number;
  currency: typeof CURRENCY;
  reason: string | null;
  status: RefundStatus;
  livemode: boolean;
  createdAt: string;
  succeededAt: string | null;
  failedAt: string | null;
  failureReason: string | null;
}
