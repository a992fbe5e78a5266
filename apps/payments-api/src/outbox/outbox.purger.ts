import { Injectable } from '@nestjs/common';
import { PeriodicTask } from '../scheduling/periodic-task';
import { OutboxRepository } from './outbox.repository';

const KEEP_HOURS = 24;
const BATCH_SIZE = 1_000;

/** Deletes outbox rows published more than a day ago. */
@Injectable()
export class OutboxPurger extends PeriodicTask {
  protected readonly intervalMs = 10 * 60_000;

  constructor(private readonly outbox: OutboxRepository) {
    super();
  }

  protected async tick(): Promise<void> {
    while ((await this.outbox.purgePublished(KEEP_HOURS, BATCH_SIZE)) === BATCH_SIZE) {
      // a full batch: more may be waiting
    }
  }
}
