import { inBatches } from '@payhook/persistence';
import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { RecoveryCodeHashes } from './recovery-code-hashes';
import { TwoStepRepository } from './two-step.repository';

const BATCH_SIZE = 100;

/**
 * Recovery codes made before codes were keyed are stored as a bare salted SHA-256, which a copy of
 * the database could test guesses against. Each start keys what is left of them under SECRETS_KEY, in
 * the background: the stored digest is what the keyed hash is taken over, so no code is needed and
 * none stops working (until then such a code matches by its digest). Nothing of this version makes
 * such rows, so it runs once per start, not on a timer.
 */
@Injectable()
export class RecoveryCodesKeyer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(RecoveryCodesKeyer.name);
  private running?: Promise<unknown>;
  private stopping = false;

  constructor(
    private readonly store: TwoStepRepository,
    private readonly hashes: RecoveryCodeHashes,
  ) {}

  onApplicationBootstrap(): void {
    this.running = this.keyUnkeyed().catch((error: unknown) =>
      this.logger.error(`keying recovery codes failed, the next start tries again: ${String(error)}`),
    );
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopping = true;
    await this.running;
  }

  /** Keys every code still stored unkeyed, a batch at a time until a shutdown; how many it keyed. */
  async keyUnkeyed(): Promise<number> {
    const keyed = await inBatches(BATCH_SIZE, (size) =>
      this.stopping
        ? Promise.resolve(0)
        : this.store.keyUnkeyedRecoveryCodes(size, (digest) => this.hashes.ofDigest(digest)),
    );
    if (keyed > 0) this.logger.log(`keyed ${keyed} two-step recovery codes stored before codes were keyed`);
    return keyed;
  }
}
