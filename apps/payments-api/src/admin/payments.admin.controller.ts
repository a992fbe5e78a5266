import { Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { AdminGuard } from '@payhook/auth';
import type { DataEnvelope, PaymentView } from '@payhook/contracts';
import { PaymentTransitionsService } from '../payments/payment-transitions.service';
import { IdParam } from '../http/id-param';

@Controller('admin/v1/payments')
@UseGuards(AdminGuard)
export class PaymentsAdminController {
  constructor(private readonly transitions: PaymentTransitionsService) {}

  /** The operator saw the funds arrive: the payment completes and its webhook goes out. */
  @Post(':id/confirm-receipt')
  @HttpCode(200)
  async confirmReceipt(@IdParam('payment') id: string): Promise<DataEnvelope<PaymentView>> {
    return { data: await this.transitions.transition(null, id, 'completed') };
  }
}
