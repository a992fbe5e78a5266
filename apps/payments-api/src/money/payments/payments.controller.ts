import { Body, Controller, Get, Headers, HttpCode, Post, Query, Res, UseGuards } from '@nestjs/common';
import { ApiKeyGuard, CurrentAuth, type AuthContext } from '@payhook/auth';
import { ApiActor, type AuditActor } from '../../core/audit';
import type { DataEnvelope, ListEnvelope, PaymentView } from '@payhook/contracts';
import type { Response } from 'express';
import { parseIdempotencyKey } from '../../core/idempotency';
import { CreatePaymentRequestDto } from './dto/create-payment.request.dto';
import { ListPaymentsQueryDto } from './dto/list-payments.query.dto';
import { PaymentTransitionsService } from './payment-transitions.service';
import { PaymentsService } from './payments.service';
import { ApiHeader, ApiTags } from '@nestjs/swagger';
import { dataOf, listOf } from '../../platform/openapi/schema-builders';
import { ApiRoute, BODY_ERRORS } from '../../platform/openapi/api-route.decorator';
import { IdParam } from '../../platform/http/id-param';

@ApiTags('payments')
@Controller('v1/payments')
@UseGuards(ApiKeyGuard)
export class PaymentsController {
  constructor(
    private readonly payments: PaymentsService,
    private readonly transitions: PaymentTransitionsService,
  ) {}

  @Post()
  @ApiRoute({
    summary: 'Create a payment; a repeat with the same Idempotency-Key and body answers the same bytes',
    status: 201,
    response: dataOf('CreatedPayment'),
    errors: [
      ...BODY_ERRORS,
      'idempotency_key_missing',
      'idempotency_key_invalid',
      'idempotency_key_in_use',
      'idempotency_key_reused',
      'order_already_active',
    ],
  })
  @ApiHeader({ name: 'Idempotency-Key', required: true, description: '1 to 255 printable ASCII characters' })
  async create(
    @CurrentAuth() auth: AuthContext,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
    @Body() body: CreatePaymentRequestDto,
    @Res() response: Response,
  ): Promise<void> {
    const key = parseIdempotencyKey(idempotencyKey);
    const result = await this.payments.create(auth, key, body);
    if (result.replayed) response.setHeader('Idempotent-Replayed', 'true');
    response.status(result.status).type('application/json').send(result.body);
  }

  /**
   * The merchant no longer wants the payment: pending → canceled with its
   * payment.canceled event; again → the canceled payment; any other state → 409. A cancel racing a
   * completion is decided by the database: exactly one of them wins.
   */
  @Post(':id/cancel')
  @ApiRoute({
    summary: 'Cancel a pending payment; cancelling a canceled one answers it again',
    status: 200,
    response: dataOf('Payment'),
    errors: ['resource_not_found', 'payment_state_conflict'],
  })
  @HttpCode(200)
  async cancel(
    @CurrentAuth() auth: AuthContext,
    @ApiActor() by: AuditActor,
    @IdParam('payment') id: string,
  ): Promise<DataEnvelope<PaymentView>> {
    return { data: await this.transitions.transition(auth, id, 'canceled', 'answer', by) };
  }

  @Get(':id')
  @ApiRoute({ summary: 'One payment', status: 200, response: dataOf('Payment'), errors: ['resource_not_found'] })
  async get(@CurrentAuth() auth: AuthContext, @IdParam('payment') id: string): Promise<DataEnvelope<PaymentView>> {
    return { data: await this.payments.get(auth, id) };
  }

  @Get()
  @ApiRoute({
    summary: 'Payments, newest first, keyset-paged',
    status: 200,
    response: listOf('Payment'),
    errors: ['parameter_invalid', 'parameter_unknown'],
  })
  list(@CurrentAuth() auth: AuthContext, @Query() query: ListPaymentsQueryDto): Promise<ListEnvelope<PaymentView>> {
    return this.payments.list(auth, query);
  }
}
