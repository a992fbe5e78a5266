import { Module } from '@nestjs/common';
import { IdempotencyModule } from '../../core/idempotency';
import { LedgerModule } from '../../core/ledger';
import { RefundAccounts } from './refund-accounts';
import { RefundAccountsRekeyer } from './refund-accounts.rekeyer';
import { RefundOperationsService } from './refund-operations.service';
import { RefundsAdminController } from './refunds.admin.controller';
import { PaymentRefundsController, RefundsController } from './refunds.controller';
import { RefundTestHelpersController } from './refund-test-helpers.controller';
import { RefundsRepository } from './refunds.repository';
import { RefundsService } from './refunds.service';
import { TestRefundBatcher } from './test-refund.batcher';
import { AuditModule } from '../../core/audit';
import { AuthThrottleModule } from '../../accounts/auth-throttle';
import { MerchantsModule } from '../../accounts/merchants';

/** Refunds: the merchant API, the operator's queue, and RefundsService for the console. */
@Module({
  imports: [IdempotencyModule, LedgerModule, AuditModule, AuthThrottleModule, MerchantsModule],
  controllers: [PaymentRefundsController, RefundsController, RefundsAdminController, RefundTestHelpersController],
  providers: [
    RefundsService,
    TestRefundBatcher,
    RefundOperationsService,
    RefundsRepository,
    RefundAccounts,
    RefundAccountsRekeyer,
  ],
  exports: [RefundsService],
})
export class RefundsModule {}
