import { Module } from '@nestjs/common';
import { LedgerModule } from '../ledger';
import { PaymentsModule } from '../payments/payments.module';
import { DepositsModule } from '../deposits/deposits.module';
import { VouchersModule } from '../vouchers/vouchers.module';
import { PayScreenController } from './pay-screen.controller';
import { PayScreenService } from './pay-screen.service';

@Module({
  imports: [LedgerModule, PaymentsModule, DepositsModule, VouchersModule],
  controllers: [PayScreenController],
  providers: [PayScreenService],
})
export class PayScreenModule {}
