import type { EscrowView } from './escrow.contract';

export const PAYMENT_STATUSES = ['pending', 'completed', 'failed', 'canceled', 'expired'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export const CURRENCY = 'KRW';
export const MIN_AMOUNT = 1;
export const MAX_AMOUNT = 10_000_000_000;

/**
 * A merchant's own keys on a payment or a refund: at most METADATA_MAX_KEYS keys, each
 * 1 to METADATA_KEY_MAX_CHARS of `[A-Za-z0-9_.-]`, with string values of 0 to
 * METADATA_VALUE_MAX_CHARS printable characters. `{}` when none was given.
 */
export type Metadata = Record<string, string>;
export const METADATA_MAX_KEYS = 20;
export const METADATA_KEY_MAX_CHARS = 40;
export const METADATA_VALUE_MAX_CHARS = 500;

/** The payment as create returns it (spec §2.1). */
export interface CreatedPaymentView {
  id: string;
  orderId: string;
  amount: number;
  currency: typeof CURRENCY;
  status: PaymentStatus;
  payUrl: string;
  expiresAt: string;
}

/** The payment as get and list return it. */
export interface PaymentView extends CreatedPaymentView {
  createdAt: string;
  completedAt: string | null;
  livemode: boolean;
  /** The sum of the payment's succeeded refunds, 0 before any; not on the create response. */
  refundedAmount: number;
  /** The part exempt from VAT (면세), 0 to amount; 0 unless create gave one. */
  taxFreeAmount: number;
  /** VAT inside the taxable part: ⌊(amount − taxFreeAmount + 5) / 11⌋. */
  vat: number;
  /** The taxable part less its VAT (공급가액). */
  suppliedAmount: number;
  metadata: Metadata;
  /** The escrow of an escrow payment (구매안전서비스); null for any other. */
  escrow: EscrowView | null;
}
