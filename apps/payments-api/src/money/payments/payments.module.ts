import { Module } from '@nestjs/common';
import { CashReceiptsModule } from '../cash-receipts';
import { LedgerModule } from '../../core/ledger';
import { IdempotencyModule } from '../../core/idempotency';
import { PaymentExpirySweeper } from './payment-expiry.sweeper';
import { PaymentInsertBatcher } from './payment-insert.batcher';
import { PaymentTransitionsService } from './payment-transitions.service';
import { PaymentsAdminController } from './payments.admin.controller';
import { PaymentsController } from './payments.controller';
import { PaymentsRepository } from './payments.repository';
import { PaymentMoneyRecordsRepository } from './payment-money-records.repository';
import { PaymentsService } from './payments.service';
import { TestHelpersController } from './test-helpers.controller';
import { AuditModule } from '../../core/audit';
import { AuthThrottleModule } from '../../accounts/auth-throttle';
import { MerchantsModule } from '../../accounts/merchants';

@Module({
  imports: [IdempotencyModule, LedgerModule, AuditModule, AuthThrottleModule, MerchantsModule, CashReceiptsModule],
  controllers: [PaymentsController, PaymentsAdminController, TestHelpersController],
  providers: [
    PaymentMoneyRecordsRepository,
    PaymentsService,
    PaymentsRepository,
    PaymentInsertBatcher,
    PaymentTransitionsService,
    PaymentExpirySweeper,
  ],
  exports: [PaymentMoneyRecordsRepository, PaymentsService, PaymentsRepository, PaymentTransitionsService],
})
export class PaymentsModule {}
