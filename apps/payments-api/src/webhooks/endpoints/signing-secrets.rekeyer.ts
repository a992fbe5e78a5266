import { inBatches, PeriodicTask } from '@payhook/persistence';
import { Injectable } from '@nestjs/common';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';

const BATCH_SIZE = 100;

/**
 * During a SECRETS_KEY rotation (SECRETS_KEY_PREVIOUS set), re-seals the webhook signing secrets
 * still under the previous key with the current one, a short batch at a time, from boot and then
 * every interval, so after a while no row needs the previous key. Several API instances may run it
 * at once: each row is replaced only if it is still what was read. Logs counts, never a secret.
 */
@Injectable()
export class SigningSecretsRekeyer extends PeriodicTask {
  protected readonly intervalMs = 10 * 60_000;
  private reported = false;

  constructor(private readonly endpoints: WebhookEndpointsRepository) {
    super();
  }

  /** Without SECRETS_KEY_PREVIOUS nothing is being rotated: no timer at all. */
  override onApplicationBootstrap(): void {
    if (!this.endpoints.keyIds.previous) return;
    super.onApplicationBootstrap();
    // The first pass at once, in the background: the app is serving meanwhile.
    void this.runOnce();
  }

  protected async tick(): Promise<void> {
    const { current, previous } = this.endpoints.keyIds;
    if (!previous) return;
    let after: string | null = null;
    let moved = 0;
    const unreadable: string[] = [];
    await inBatches(BATCH_SIZE, async (size) => {
      const batch = await this.endpoints.resealUnderCurrentKey(after, size);
      after = batch.last;
      moved += batch.moved;
      unreadable.push(...batch.unreadable);
      return batch.examined;
    });
    if (unreadable.length > 0) {
      this.logger.error(
        `${unreadable.length} webhook signing secrets name SECRETS_KEY_PREVIOUS (key ${previous}) but do not ` +
          `open with it (changed, or copied from another row); their merchants must rotate them: endpoints ` +
          unreadable.join(', '),
      );
    }
    if (moved === 0 && this.reported) return;
    this.reported = true;
    const left = await this.endpoints.countUnderPreviousKey();
    this.logger.log(
      `re-encrypted ${moved} webhook signing secrets from SECRETS_KEY_PREVIOUS (key ${previous}) to SECRETS_KEY ` +
        `(key ${current}); ${left} still under the previous key`,
    );
  }
}
