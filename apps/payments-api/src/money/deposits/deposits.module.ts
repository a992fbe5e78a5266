import { Module } from '@nestjs/common';
import { LedgerModule } from '../../core/ledger';
import { PaymentsModule } from '../payments';
import { DepositTestHelpersController } from './deposit-test-helpers.controller';
import { DepositsAdminController } from './deposits.admin.controller';
import { DepositCodesRepository } from './deposit-codes.repository';
import { DepositsRepository } from './deposits.repository';
import { DepositsService } from './deposits.service';
import { AuthThrottleModule } from '../../accounts/auth-throttle';
import { MerchantsModule } from '../../accounts/merchants';

/** Bank transfers: deposit notifications matched to payments by deposit code and amount. */
@Module({
  imports: [LedgerModule, PaymentsModule, AuthThrottleModule, MerchantsModule],
  controllers: [DepositsAdminController, DepositTestHelpersController],
  providers: [DepositCodesRepository, DepositsRepository, DepositsService],
  exports: [DepositsService],
})
export class DepositsModule {}
