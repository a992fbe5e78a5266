import { Module } from '@nestjs/common';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { LedgerModule } from '../ledger';
import { RefundAccounts } from './refund-accounts';
import { RefundsRepository } from './refunds.repository';
import { RefundsService } from './refunds.service';

/** Refunds (DESIGN §9): the merchant API, the operator's queue, and RefundsService for the console. */
@Module({
  imports: [IdempotencyModule, LedgerModule],
  providers: [RefundsService, RefundsRepository, RefundAccounts],
  exports: [RefundsService],
})
export class RefundsModule {}
