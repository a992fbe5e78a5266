import { Injectable } from '@nestjs/common';
import type { Sql } from '@payhook/persistence';
import type { VoucherHold, VoucherIssuer, VoucherKind, VoucherRefusal } from './voucher-issuer';
import { PinHashes } from './pin-hashes';
import { rekeyPinRows } from './pin-rekeying';
import { pinDigest } from './voucher-pin';

/** The built-in registry: vouchers the operator loaded with POST /admin/v1/vouchers, in the vouchers table. */
@Injectable()
export class RegistryVoucherIssuer implements VoucherIssuer {
  constructor(private readonly pinHashes: PinHashes) {}

  async hold(sql: Sql, pin: string, payment: { id: string; livemode: boolean }): Promise<VoucherHold | VoucherRefusal> {
    // During a rotation the PIN's row may still carry the previous key's hash: it moves first.
    const digest = pinDigest(pin);
    await rekeyPinRows(sql, this.pinHashes, payment.livemode, [digest]);
    const pinHash = this.pinHashes.current(pin);
    // The row lock makes concurrent holds of one PIN queue; after the first commits the others no longer match.
    const [held] = await sql<{ id: string; kind: VoucherKind; face_value: string; pin_digest_sealed: string | null }>(
      `UPDATE vouchers SET status = 'held', payment_id = $3, held_at = COALESCE(held_at, now())
        WHERE livemode = $1 AND pin_hash = $2 AND issuer = 'registry'
          AND (status = 'available' OR (status = 'held' AND payment_id = $3))
        RETURNING id, kind, face_value, pin_digest_sealed`,
      [payment.livemode, pinHash, payment.id],
    );
    if (held) {
      // A row stored before digests were sealed gets its own now, under the row lock just taken: a
      // later rotation can then move it without its PIN.
      if (held.pin_digest_sealed === null) {
        await sql(`UPDATE vouchers SET pin_digest_sealed = $2 WHERE id = $1`, [
          held.id,
          this.pinHashes.storedUnderCurrentKey(held.id, digest).pinDigestSealed,
        ]);
      }
      return { voucherId: held.id, kind: held.kind, faceValue: Number(held.face_value) };
    }
    const [known] = await sql('SELECT 1 FROM vouchers WHERE livemode = $1 AND pin_hash = $2', [
      payment.livemode,
      pinHash,
    ]);
    return known ? 'used' : 'unknown';
  }
}
