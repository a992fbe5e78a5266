import { inBatches, PeriodicTask } from '@payhook/persistence';
import { Injectable } from '@nestjs/common';
import { IdempotencyKeysRepository } from './idempotency-keys.repository';

const BATCH_SIZE = 1_000;

/** Forgets idempotency keys older than IDEMPOTENCY_TTL_HOURS, in small batches. */
@Injectable()
export class IdempotencyKeyPurger extends PeriodicTask {
  protected readonly intervalMs = 60_000;

  constructor(private readonly keys: IdempotencyKeysRepository) {
    super();
  }

  protected async tick(): Promise<void> {
    await inBatches(BATCH_SIZE, (size) => this.keys.purgeExpired(size));
  }
}
