import { Injectable } from '@nestjs/common';
import type { LedgerTx } from '../../core/ledger';
import type { VoucherHold, VoucherIssuer, VoucherKind, VoucherRefusal } from './voucher-issuer';
import { PinHashes } from './pin-hashes';
import { rekeyPinRows, sealPinDigest } from './pin-rekeying';
import { pinDigest } from './voucher-pin';

/** The built-in registry: vouchers the operator loaded with POST /admin/v1/vouchers, in the vouchers table. */
@Injectable()
export class RegistryVoucherIssuer implements VoucherIssuer {
  constructor(private readonly pinHashes: PinHashes) {}

  async hold(
    tx: LedgerTx,
    pin: string,
    payment: { id: string; livemode: boolean },
  ): Promise<VoucherHold | VoucherRefusal> {
    // During a rotation the PIN's row may still carry the previous key's hash: it moves first.
    const digest = pinDigest(pin);
    await rekeyPinRows(tx.sql, this.pinHashes, payment.livemode, [digest]);
    const pinHash = this.pinHashes.current(pin);
    const held = await tx.vouchers.holdRegistered(payment.livemode, pinHash, payment.id);
    if (held) {
      // A row stored before digests were sealed gets its own now, under the row lock just taken.
      if (held.pinDigestSealed === null) await sealPinDigest(tx.sql, this.pinHashes, held.id, digest);
      // The vouchers table's CHECK constraint holds kind to VOUCHER_KINDS.
      return { voucherId: held.id, kind: held.kind as VoucherKind, faceValue: held.faceValue };
    }
    const [known] = await tx.sql('SELECT 1 FROM vouchers WHERE livemode = $1 AND pin_hash = $2', [
      payment.livemode,
      pinHash,
    ]);
    return known ? 'used' : 'unknown';
  }
}
