import { PeriodicTask } from '@payhook/persistence';
import { Injectable } from '@nestjs/common';
import { VouchersRepository } from './vouchers.repository';

/** Drops wrong-PIN records once they are too old to throttle anyone. */
@Injectable()
export class VoucherPinFailuresPurger extends PeriodicTask {
  protected readonly intervalMs = 60_000;

  constructor(private readonly vouchers: VouchersRepository) {
    super();
  }

  protected tick(): Promise<void> {
    return this.vouchers.purgeFailures();
  }
}
