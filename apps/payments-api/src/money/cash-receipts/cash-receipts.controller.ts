import { Body, Controller, Get, Post, Query, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiKeyGuard, CurrentAuth, type AuthContext } from '@payhook/auth';
import type { CashReceiptView, DataEnvelope, ListEnvelope } from '@payhook/contracts';
import { IdParam } from '../../platform/http/id-param';
import { ApiRoute, BODY_ERRORS } from '../../platform/openapi/api-route.decorator';
import { dataOf, listOf } from '../../platform/openapi/schema-builders';
import { CashReceiptsService } from './cash-receipts.service';
import { CashReceiptRequestDto } from './dto/cash-receipt-request.dto';
import { ListCashReceiptsQueryDto } from './dto/list-cash-receipts.query.dto';

/** POST /v1/payments/{id}/cash-receipts: a receipt belongs under its payment. */
@ApiTags('cash receipts')
@Controller('v1/payments')
@UseGuards(ApiKeyGuard)
export class PaymentCashReceiptsController {
  constructor(private readonly cashReceipts: CashReceiptsService) {}

  @Post(':id/cash-receipts')
  @ApiRoute({
    summary:
      'A cash receipt (현금영수증) for a completed payment, covering what was paid and not refunded; one pending or issued per payment',
    status: 201,
    response: dataOf('CashReceipt'),
    errors: [...BODY_ERRORS, 'resource_not_found', 'payment_state_conflict', 'cash_receipt_exists'],
  })
  async request(
    @CurrentAuth() auth: AuthContext,
    @IdParam('payment') paymentId: string,
    @Body() body: CashReceiptRequestDto,
  ): Promise<DataEnvelope<CashReceiptView>> {
    return { data: await this.cashReceipts.request(auth, paymentId, body) };
  }
}

@ApiTags('cash receipts')
@Controller('v1/cash-receipts')
@UseGuards(ApiKeyGuard)
export class CashReceiptsController {
  constructor(private readonly cashReceipts: CashReceiptsService) {}

  @Get(':id')
  @ApiRoute({
    summary: 'One cash receipt',
    status: 200,
    response: dataOf('CashReceipt'),
    errors: ['resource_not_found'],
  })
  async get(
    @CurrentAuth() auth: AuthContext,
    @IdParam('cashReceipt') id: string,
  ): Promise<DataEnvelope<CashReceiptView>> {
    return { data: await this.cashReceipts.get(auth, id) };
  }

  @Get()
  @ApiRoute({
    summary: 'Cash receipts, newest first, keyset-paged',
    status: 200,
    response: listOf('CashReceipt'),
    errors: ['parameter_invalid', 'parameter_unknown'],
  })
  list(
    @CurrentAuth() auth: AuthContext,
    @Query() query: ListCashReceiptsQueryDto,
  ): Promise<ListEnvelope<CashReceiptView>> {
    return this.cashReceipts.list(auth, query);
  }
}
