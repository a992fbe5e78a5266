import { Inject, Injectable } from '@nestjs/common';
import { PaymentsApiEnv } from '../config/payments-api.env';
import { PeriodicTask } from '../scheduling/periodic-task';
import { OutboxRepository } from './outbox.repository';

const BATCH_SIZE = 1_000;

/** Deletes outbox rows published longer than OUTBOX_RETENTION ago, a short batch at a time. */
@Injectable()
export class OutboxPurger extends PeriodicTask {
  protected readonly intervalMs = 10 * 60_000;

  constructor(
    private readonly outbox: OutboxRepository,
    @Inject(PaymentsApiEnv) private readonly env: PaymentsApiEnv,
  ) {
    super();
  }

  protected async tick(): Promise<void> {
    while ((await this.outbox.purgePublished(this.env.outboxRetentionMs, BATCH_SIZE)) === BATCH_SIZE) {
      // a full batch: more may be waiting
    }
  }
}
