import { Module } from '@nestjs/common';
import { PaymentsModule } from '../../money/payments/payments.module';
import { DepositsModule } from '../../money/deposits/deposits.module';
import { VouchersModule } from '../../money/vouchers/vouchers.module';
import { PayScreenController } from './pay-screen.controller';
import { PayScreenService } from './pay-screen.service';

@Module({
  imports: [PaymentsModule, DepositsModule, VouchersModule],
  controllers: [PayScreenController],
  providers: [PayScreenService],
})
export class PayScreenModule {}
