/**
 * An escrow's life (구매안전서비스): the buyer's money waits from the payment until the buyer confirms
 * the goods arrived (or the auto-confirm day passes), or rejects them.
 */
export const ESCROW_STATUSES = ['awaiting_shipment', 'shipped', 'confirmed', 'rejected'] as const;
export type EscrowStatus = (typeof ESCROW_STATUSES)[number];

/** Create's `escrow`: the buyer's e-mail address, to which the confirmation link goes at the first shipment. */
export interface EscrowRequest {
  buyerEmail: string;
}
export const BUYER_EMAIL_MIN_CHARS = 3;
export const BUYER_EMAIL_MAX_CHARS = 254;

/** The shipment's carrier and tracking number: each 1 to this many printable characters. */
export const SHIPMENT_FIELD_MAX_CHARS = 64;
/** A buyer's reason for rejecting: 1 to this many characters. */
export const REJECT_REASON_MAX_CHARS = 500;

/** How many business days after the shipment an escrow confirms by itself, unless ESCROW_AUTO_CONFIRM_DAYS says. */
export const DEFAULT_ESCROW_AUTO_CONFIRM_DAYS = 7;
export const MAX_ESCROW_AUTO_CONFIRM_DAYS = 30;

/** A payment's escrow as reads show it; each field null until it applies. The buyer's address is never shown. */
export interface EscrowView {
  status: EscrowStatus;
  carrier: string | null;
  trackingNumber: string | null;
  shippedAt: string | null;
  /** 00:00 Asia/Seoul of the day a shipped escrow confirms by itself. */
  autoConfirmAt: string | null;
  confirmedAt: string | null;
  rejectedAt: string | null;
  rejectReason: string | null;
}
