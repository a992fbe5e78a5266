import { Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AdminRoute } from '../../platform/openapi/api-route.decorator';
import { dataOf } from '../../platform/openapi/schema-builders';
import { AdminGuard } from '@payhook/auth';
import type { DataEnvelope, PaymentView } from '@payhook/contracts';
import { PaymentTransitionsService } from './payment-transitions.service';
import { IdParam } from '../../platform/http/id-param';

@ApiTags('payments')
@Controller('admin/v1/payments')
@UseGuards(AdminGuard)
export class PaymentsAdminController {
  constructor(private readonly transitions: PaymentTransitionsService) {}

  /** The operator saw the funds arrive: the payment completes and its webhook goes out. */
  @Post(':id/confirm-receipt')
  @AdminRoute({
    summary: 'The funds arrived: complete the pending payment and send its webhook',
    status: 200,
    response: dataOf('Payment'),
    errors: ['payment_state_conflict'],
  })
  @HttpCode(200)
  async confirmReceipt(@IdParam('payment') id: string): Promise<DataEnvelope<PaymentView>> {
    return { data: await this.transitions.transition(null, id, 'completed') };
  }
}
