import { Module } from '@nestjs/common';
import { CashReceiptsModule } from '../../money/cash-receipts';
import { EscrowModule } from '../../money/escrow';
import { PaymentsModule } from '../../money/payments';
import { DepositsModule } from '../../money/deposits';
import { VouchersModule } from '../../money/vouchers';
import { EscrowPageController } from './escrow-page.controller';
import { EscrowPageService } from './escrow-page.service';
import { PayScreenController } from './pay-screen.controller';
import { PayScreenService } from './pay-screen.service';

@Module({
  imports: [PaymentsModule, DepositsModule, VouchersModule, CashReceiptsModule, EscrowModule],
  controllers: [PayScreenController, EscrowPageController],
  providers: [PayScreenService, EscrowPageService],
})
export class PayScreenModule {}
