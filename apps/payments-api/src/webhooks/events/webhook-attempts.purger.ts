import { Inject, Injectable } from '@nestjs/common';
import { PaymentsApiEnv } from '../../platform/config/payments-api.env';
import { inBatches, PeriodicTask } from '../../platform/scheduling/periodic-task';
import { EventsRepository } from './events.repository';

const BATCH_SIZE = 1_000;

/**
 * Deletes delivery attempts older than WEBHOOK_ATTEMPT_RETENTION, a short batch at a time, so the
 * table holds a month of attempts however long payhook runs. Events themselves are never purged.
 */
@Injectable()
export class WebhookAttemptsPurger extends PeriodicTask {
  protected readonly intervalMs = 10 * 60_000;

  constructor(
    private readonly events: EventsRepository,
    @Inject(PaymentsApiEnv) private readonly env: PaymentsApiEnv,
  ) {
    super();
  }

  protected async tick(): Promise<void> {
    await inBatches(BATCH_SIZE, (size) => this.events.purgeAttempts(this.env.attemptRetentionMs, size));
  }
}
