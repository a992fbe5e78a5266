import { inBatches, PeriodicTask } from '@payhook/persistence';
import { Injectable } from '@nestjs/common';
import { PaymentTransitionsService } from './payment-transitions.service';

const BATCH_SIZE = 500;

/**
 * Moves pending payments past expiresAt to `expired`, each with its payment.expired event. Reads
 * already show them as expired; this makes the row agree and frees the order for a new payment.
 */
@Injectable()
export class PaymentExpirySweeper extends PeriodicTask {
  protected readonly intervalMs = 5_000;

  constructor(private readonly transitions: PaymentTransitionsService) {
    super();
  }

  protected async tick(): Promise<void> {
    await inBatches(BATCH_SIZE, (size) => this.transitions.expireOverdue(size));
  }
}
