import { Injectable } from '@nestjs/common';
import { inBatches, PeriodicTask } from '../scheduling/periodic-task';
import { PaymentsRepository } from './payments.repository';

const BATCH_SIZE = 500;

/**
 * Moves pending payments past expiresAt to `expired`. Reads already show them as expired;
 * this makes the row agree and frees the order for a new payment.
 */
@Injectable()
export class PaymentExpirySweeper extends PeriodicTask {
  protected readonly intervalMs = 5_000;

  constructor(private readonly payments: PaymentsRepository) {
    super();
  }

  protected async tick(): Promise<void> {
    await inBatches(BATCH_SIZE, (size) => this.payments.expireOverdue(size));
  }
}
