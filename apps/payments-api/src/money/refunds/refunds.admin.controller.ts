import { Body, Controller, Get, HttpCode, Post, Query, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AdminGuard } from '@payhook/auth';
import type { DataEnvelope, ListEnvelope, RefundView } from '@payhook/contracts';
import { IdParam } from '../../platform/http/id-param';
import { NoStore } from '../../platform/http/no-store';
import { AdminRoute, BODY_ERRORS } from '../../platform/openapi/api-route.decorator';
import { dataOf, listOf } from '../../platform/openapi/schema-builders';
import { FailRefundRequestDto, ListAdminRefundsQueryDto, SucceedRefundRequestDto } from './dto/admin-refunds.dto';
import { RefundOperationsService } from './refund-operations.service';
import type { AdminRefundView } from './refund.view';

/** The operator's refund queue: live refunds wait here until the money is sent. */
@ApiTags('refunds')
@Controller('admin/v1/refunds')
@UseGuards(AdminGuard)
export class RefundsAdminController {
  constructor(private readonly operations: RefundOperationsService) {}

  @Get()
  @NoStore()
  @AdminRoute({
    summary: 'Refunds of one status (default pending), oldest first, keyset-paged, with their refund accounts',
    status: 200,
    response: listOf('AdminRefund'),
    errors: ['parameter_invalid', 'parameter_unknown'],
  })
  queue(@Query() query: ListAdminRefundsQueryDto): Promise<ListEnvelope<AdminRefundView>> {
    return this.operations.queue(query);
  }

  @Post(':id/succeed')
  @NoStore()
  @AdminRoute({
    summary: 'The money was sent: the pending refund succeeds, with its event and settlement record',
    status: 200,
    response: dataOf('Refund'),
    errors: [...BODY_ERRORS, 'refund_state_conflict'],
  })
  @HttpCode(200)
  async succeed(
    @IdParam('refund') id: string,
    @Body() body: SucceedRefundRequestDto,
  ): Promise<DataEnvelope<RefundView>> {
    return { data: await this.operations.succeed(id, body.bankTransactionId) };
  }

  @Post(':id/fail')
  @NoStore()
  @AdminRoute({
    summary: 'The money could not be sent: the pending refund fails and its amount is refundable again',
    status: 200,
    response: dataOf('Refund'),
    errors: [...BODY_ERRORS, 'refund_state_conflict'],
  })
  @HttpCode(200)
  async fail(@IdParam('refund') id: string, @Body() body: FailRefundRequestDto): Promise<DataEnvelope<RefundView>> {
    return { data: await this.operations.fail(id, body.reason) };
  }
}
