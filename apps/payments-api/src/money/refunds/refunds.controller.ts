import { Body, Controller, Get, Headers, Post, Query, Res, UseGuards } from '@nestjs/common';
import { ApiHeader, ApiTags } from '@nestjs/swagger';
import { ApiKeyGuard, CurrentAuth, type AuthContext } from '@payhook/auth';
import { ApiActor, type AuditActor } from '../../core/audit';
import type { DataEnvelope, ListEnvelope, RefundView } from '@payhook/contracts';
import type { Response } from 'express';
import { IdParam } from '../../platform/http/id-param';
import { parseIdempotencyKey } from '../../core/idempotency';
import { ApiRoute, BODY_ERRORS } from '../../platform/openapi/api-route.decorator';
import { dataOf, listOf } from '../../platform/openapi/schema-builders';
import { CreateRefundRequestDto } from './dto/create-refund.request.dto';
import { ListRefundsQueryDto } from './dto/list-refunds.query.dto';
import { RefundsService } from './refunds.service';

/** POST /v1/payments/{id}/refunds: a refund belongs under its payment. */
@ApiTags('refunds')
@Controller('v1/payments')
@UseGuards(ApiKeyGuard)
export class PaymentRefundsController {
  constructor(private readonly refunds: RefundsService) {}

  @Post(':id/refunds')
  @ApiRoute({
    summary:
      'Refund a completed payment in full or in part; a repeat with the same Idempotency-Key and body answers the same bytes',
    status: 201,
    response: dataOf('Refund'),
    errors: [
      ...BODY_ERRORS,
      'idempotency_key_missing',
      'idempotency_key_invalid',
      'idempotency_key_reused',
      'resource_not_found',
      'payment_state_conflict',
      'refund_amount_exceeded',
    ],
  })
  @ApiHeader({ name: 'Idempotency-Key', required: true, description: '1 to 255 printable ASCII characters' })
  async create(
    @CurrentAuth() auth: AuthContext,
    @ApiActor() by: AuditActor,
    @IdParam('payment') paymentId: string,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
    @Body() body: CreateRefundRequestDto,
    @Res() response: Response,
  ): Promise<void> {
    const key = parseIdempotencyKey(idempotencyKey);
    const result = await this.refunds.create(auth, paymentId, key, body, by);
    if (result.replayed) response.setHeader('Idempotent-Replayed', 'true');
    response.status(result.status).type('application/json').send(result.body);
  }
}

@ApiTags('refunds')
@Controller('v1/refunds')
@UseGuards(ApiKeyGuard)
export class RefundsController {
  constructor(private readonly refunds: RefundsService) {}

  @Get(':id')
  @ApiRoute({ summary: 'One refund', status: 200, response: dataOf('Refund'), errors: ['resource_not_found'] })
  async get(@CurrentAuth() auth: AuthContext, @IdParam('refund') id: string): Promise<DataEnvelope<RefundView>> {
    return { data: await this.refunds.get(auth, id) };
  }

  @Get()
  @ApiRoute({
    summary: 'Refunds, newest first, keyset-paged',
    status: 200,
    response: listOf('Refund'),
    errors: ['parameter_invalid', 'parameter_unknown'],
  })
  list(@CurrentAuth() auth: AuthContext, @Query() query: ListRefundsQueryDto): Promise<ListEnvelope<RefundView>> {
    return this.refunds.list(auth, query);
  }
}
