import { inBatches, PeriodicTask } from '@payhook/persistence';
import { Injectable } from '@nestjs/common';
import { VouchersRepository, type RekeyBatch } from './vouchers.repository';

const BATCH_SIZE = 100;
/** Unreadable rows named in the error line: the count says how many there are. */
const UNREADABLE_IDS_SHOWN = 5;

/**
 * During a SECRETS_KEY rotation (SECRETS_KEY_PREVIOUS set), moves every voucher row still under the
 * previous key to the current one through its sealed PIN digest, a short batch at a time, from boot and
 * then every interval: a PIN redeemed before the rotation and never seen again must still be found once
 * the previous key is gone, or it would load again as a new voucher and pay twice. Several API instances
 * may run it at once (rows are taken with SKIP LOCKED). A PIN found under both keys (loaded again after a
 * rotation before this rekeyer existed) is merged as a load would merge it. Logs counts and a few voucher
 * ids, never a PIN, digest or hash.
 */
@Injectable()
export class VoucherPinsRekeyer extends PeriodicTask {
  protected readonly intervalMs = 10 * 60_000;
  private reported = false;

  constructor(private readonly vouchers: VouchersRepository) {
    super();
  }

  /** Without SECRETS_KEY_PREVIOUS nothing is being rotated: no timer at all. */
  override onApplicationBootstrap(): void {
    if (!this.vouchers.keyIds.previous) return;
    super.onApplicationBootstrap();
    // The first pass at once, in the background: the app is serving meanwhile.
    void this.runOnce();
  }

  protected async tick(): Promise<void> {
    const { current, previous } = this.vouchers.keyIds;
    if (!previous) return;
    let after: string | null = null;
    let moved = 0;
    const conflicting: RekeyBatch['conflicting'] = [];
    const unreadable: string[] = [];
    await inBatches(BATCH_SIZE, async (size) => {
      const batch = await this.vouchers.rekeyUnderCurrentKey(after, size);
      after = batch.last;
      moved += batch.moved;
      conflicting.push(...batch.conflicting);
      unreadable.push(...batch.unreadable);
      return batch.examined;
    });
    // After the batches have committed, one PIN per transaction: a redeemed PIN is rarely seen again,
    // so only this merge keeps its unused copy under the new key from paying once the old key is gone.
    let merged = 0;
    for (const conflict of conflicting) {
      if (await this.vouchers.mergeUnderBothKeys(conflict)) merged += 1;
    }
    const usedUnderBoth = conflicting.length - merged;
    if (unreadable.length > 0) {
      const shown = unreadable.slice(0, UNREADABLE_IDS_SHOWN);
      this.logger.error(
        `${unreadable.length} vouchers name SECRETS_KEY_PREVIOUS (key ${previous}) for their sealed PIN digest ` +
          `but it does not open (changed, or copied from another row): ${shown.join(', ')}` +
          (unreadable.length > shown.length ? ` and ${unreadable.length - shown.length} more` : ''),
      );
    }
    if (moved === 0 && merged === 0 && this.reported) return;
    this.reported = true;
    const left = await this.vouchers.countNotRekeyed();
    this.logger.log(
      `re-keyed ${moved + merged} voucher PINs from SECRETS_KEY_PREVIOUS (key ${previous}) to SECRETS_KEY ` +
        `(key ${current})` +
        (merged > 0 ? ` (${merged} of them merged with a copy loaded again under the current key)` : '') +
        `; ${left.underPrevious - usedUnderBoth} still to move from the previous key` +
        (unreadable.length > 0 ? ` (${unreadable.length} of them unreadable, see above)` : '') +
        (usedUnderBoth > 0
          ? `, besides ${usedUnderBoth} PINs used under both keys, which need not move (the current key's row answers)`
          : '') +
        `; ${left.withoutDigest} stored before PIN digests were sealed, whose key cannot be told: they move ` +
        `only when loaded or redeemed. Keep SECRETS_KEY_PREVIOUS until both the rows still to move and those ` +
        `stored before PIN digests were sealed are 0, or accept that any of them already redeemed under the ` +
        `previous key could be loaded again as new`,
    );
  }
}
