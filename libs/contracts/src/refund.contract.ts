import type { CURRENCY, Metadata } from './payment.contract';

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
  /** Its part exempt from VAT (면세): as asked, or its share of the payment's tax-free part not yet refunded. */
  taxFreeAmount: number;
  /** Fixed when it succeeds, by the payment's running totals; null while pending or failed. */
  vat: number | null;
  /** Its taxable part less its VAT (공급가액); null while pending or failed. */
  suppliedAmount: number | null;
  /** The merchant's own keys; `{}` when none were given. */
  metadata: Metadata;
}
