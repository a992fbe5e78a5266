import { Module } from '@nestjs/common';
import { CashReceiptsModule } from '../../money/cash-receipts';
import { PaymentsModule } from '../../money/payments';
import { DepositsModule } from '../../money/deposits';
import { VouchersModule } from '../../money/vouchers';
import { PayScreenController } from './pay-screen.controller';
import { PayScreenService } from './pay-screen.service';

@Module({
  imports: [PaymentsModule, DepositsModule, VouchersModule, CashReceiptsModule],
  controllers: [PayScreenController],
  providers: [PayScreenService],
})
export class PayScreenModule {}
