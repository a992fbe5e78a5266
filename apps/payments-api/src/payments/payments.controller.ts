import { Body, Controller, Get, Headers, HttpCode, Post, Query, Res, UseGuards } from '@nestjs/common';
import { ApiKeyGuard, CurrentAuth, type AuthContext } from '@payhook/auth';
import type { DataEnvelope, ListEnvelope, PaymentView } from '@payhook/contracts';
import type { Response } from 'express';
import { parseIdempotencyKey } from '../idempotency/idempotency-key';
import { CreatePaymentRequestDto } from './dto/create-payment.request.dto';
import { ListPaymentsQueryDto } from './dto/list-payments.query.dto';
import { PaymentTransitionsService } from './payment-transitions.service';
import { PaymentsService } from './payments.service';
import { IdParam } from '../http/id-param';

@Controller('v1/payments')
@UseGuards(ApiKeyGuard)
export class PaymentsController {
  constructor(
    private readonly payments: PaymentsService,
    private readonly transitions: PaymentTransitionsService,
  ) {}

  @Post()
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
   * The merchant no longer wants the payment (DESIGN.md §8): pending → canceled with its
   * payment.canceled event; again → the canceled payment; any other state → 409. A cancel racing a
   * completion is decided by the database: exactly one of them wins.
   */
  @Post(':id/cancel')
  @HttpCode(200)
  async cancel(@CurrentAuth() auth: AuthContext, @IdParam('payment') id: string): Promise<DataEnvelope<PaymentView>> {
    return { data: await this.transitions.transition(auth, id, 'canceled', 'answer') };
  }

  @Get(':id')
  async get(@CurrentAuth() auth: AuthContext, @IdParam('payment') id: string): Promise<DataEnvelope<PaymentView>> {
    return { data: await this.payments.get(auth, id) };
  }

  @Get()
  list(@CurrentAuth() auth: AuthContext, @Query() query: ListPaymentsQueryDto): Promise<ListEnvelope<PaymentView>> {
    return this.payments.list(auth, query);
  }
}
