import { Module } from '@nestjs/common';
import { PaymentsModule } from '../payments/payments.module';
import { DepositsModule } from '../deposits/deposits.module';
import { VouchersModule } from '../vouchers/vouchers.module';
import { PayScreenController } from './pay-screen.controller';
import { PayScreenService } from './pay-screen.service';

@Module({
  imports: [PaymentsModule, DepositsModule, VouchersModule],
  controllers: [PayScreenController],
  providers: [PayScreenService],
})
export class PayScreenModule {}
