import { inBatches, PeriodicTask } from '@payhook/persistence';
import { Inject, Injectable } from '@nestjs/common';
import { PaymentsApiEnv } from '../../platform/config/payments-api.env';
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
    await inBatches(BATCH_SIZE, (size) => this.outbox.purgePublished(this.env.outboxRetentionMs, size));
  }
}
