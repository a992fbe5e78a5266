import { Injectable } from '@nestjs/common';
import { PeriodicTask } from '../scheduling/periodic-task';
import { AuthFailuresRepository } from './auth-failures.repository';

/** Drops failed-authentication rows older than any window, so the table holds minutes, not history. */
@Injectable()
export class AuthFailuresPurger extends PeriodicTask {
  protected readonly intervalMs = 10 * 60_000;

  constructor(private readonly failures: AuthFailuresRepository) {
    super();
  }

  protected async tick(): Promise<void> {
    while ((await this.failures.purgeOld()) === 1_000) {
      // a full batch: more may be waiting
    }
  }
}
