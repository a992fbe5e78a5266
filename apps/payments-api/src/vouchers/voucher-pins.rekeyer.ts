import { Injectable } from '@nestjs/common';
import { inBatches, PeriodicTask } from '../scheduling/periodic-task';
import { VouchersRepository } from './vouchers.repository';

const BATCH_SIZE = 100;

/**
 * During a SECRETS_KEY rotation (SECRETS_KEY_PREVIOUS set), moves every voucher row still under the
 * previous key to the current one through its sealed PIN digest, a short batch at a time, from boot and
 * then every interval: a PIN redeemed before the rotation and never seen again must still be found once
 * the previous key is gone, or it would load again as a new voucher and pay twice. Several API instances
 * may run it at once (rows are taken with SKIP LOCKED). Logs counts, never a PIN, digest or hash.
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
    let conflicting = 0;
    const unreadable: string[] = [];
    await inBatches(BATCH_SIZE, async (size) => {
      const batch = await this.vouchers.rekeyUnderCurrentKey(after, size);
      after = batch.last;
      moved += batch.moved;
      conflicting += batch.conflicting;
      unreadable.push(...batch.unreadable);
      return batch.examined;
    });
    if (unreadable.length > 0) {
      this.logger.error(
        `${unreadable.length} vouchers name SECRETS_KEY_PREVIOUS (key ${previous}) for their sealed PIN digest ` +
          `but it does not open (changed, or copied from another row): ${unreadable.join(', ')}`,
      );
    }
    if (moved === 0 && conflicting === 0 && this.reported) return;
    this.reported = true;
    const left = await this.vouchers.countNotRekeyed();
    this.logger.log(
      `re-keyed ${moved} voucher PINs from SECRETS_KEY_PREVIOUS (key ${previous}) to SECRETS_KEY (key ${current}); ` +
        `${left.underPrevious} still under the previous key` +
        (conflicting > 0
          ? ` (${conflicting} of them also under the current key, merged when loaded or redeemed)`
          : '') +
        `; ${left.withoutDigest} stored before PIN digests were sealed, whose key cannot be told: they move ` +
        `only when loaded or redeemed, so keep SECRETS_KEY_PREVIOUS until this is 0 or accept that any of them ` +
        `already redeemed under the previous key could be loaded again as new`,
    );
  }
}
