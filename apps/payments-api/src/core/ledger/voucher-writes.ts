import type { Sql } from '@payhook/persistence';

/** A registry voucher now held for a payment. */
export interface HeldVoucher {
  id: string;
  /** One of the vouchers table's kinds (its CHECK constraint holds them to 'culture' | 'book'). */
  kind: string;
  faceValue: number;
  /** Null for a row stored before PIN digests were sealed. */
  pinDigestSealed: string | null;
}

/**
 * Held voucher value: a voucher held for a payment counts against its amount due, and the payment's
 * move out of pending redeems or releases it (settleHolds, called by every payment move), in the same
 * transaction.
 */
export class VoucherWrites {
  constructor(private readonly sql: Sql) {}

  /**
   * Holds the registry voucher with this PIN hash for the payment, once across concurrent holds: the
   * row lock makes them queue, and after the first commits the others no longer match. The same
   * payment again gets the same hold. Null when no voucher of that PIN is free for it.
   */
  async holdRegistered(livemode: boolean, pinHash: string, paymentId: string): Promise<HeldVoucher | null> {
    const [held] = await this.sql<{ id: string; kind: string; face_value: string; pin_digest_sealed: string | null }>(
      `UPDATE vouchers SET status = 'held', payment_id = $3, held_at = COALESCE(held_at, now())
        WHERE livemode = $1 AND pin_hash = $2 AND issuer = 'registry'
          AND (status = 'available' OR (status = 'held' AND payment_id = $3))
        RETURNING id, kind, face_value, pin_digest_sealed`,
      [livemode, pinHash, paymentId],
    );
    return held
      ? { id: held.id, kind: held.kind, faceValue: Number(held.face_value), pinDigestSealed: held.pin_digest_sealed }
      : null;
  }

  /**
   * The held vouchers of payments that just left pending follow them: redeemed by a completion,
   * released (available again) by any other outcome.
   */
  async settleHolds(moves: readonly { paymentId: string; completed: boolean }[]): Promise<void> {
    if (moves.length === 0) return;
    await this.sql(
      `UPDATE vouchers v
          SET status = CASE WHEN m.completed THEN 'redeemed' ELSE 'available' END,
              redeemed_at = CASE WHEN m.completed THEN now() END,
              payment_id = CASE WHEN m.completed THEN v.payment_id END,
              held_at = CASE WHEN m.completed THEN v.held_at END
         FROM unnest($1::text[], $2::boolean[]) AS m (payment_id, completed)
        WHERE v.payment_id = m.payment_id AND v.status = 'held'`,
      [moves.map(({ paymentId }) => paymentId), moves.map(({ completed }) => completed)],
      'settle-voucher-holds',
    );
  }
}
