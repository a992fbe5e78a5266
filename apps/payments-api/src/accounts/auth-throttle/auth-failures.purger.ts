import { inBatches, PeriodicTask } from '@payhook/persistence';
import { Injectable } from '@nestjs/common';
import { AuthFailuresRepository } from './auth-failures.repository';

const BATCH_SIZE = 1_000;

/** Drops failed-authentication rows older than any window, so the table holds minutes, not history. */
@Injectable()
export class AuthFailuresPurger extends PeriodicTask {
  protected readonly intervalMs = 10 * 60_000;

  constructor(private readonly failures: AuthFailuresRepository) {
    super();
  }

  protected async tick(): Promise<void> {
    await inBatches(BATCH_SIZE, (size) => this.failures.purgeOld(size));
  }
}
