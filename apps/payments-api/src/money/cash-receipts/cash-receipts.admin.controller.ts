import { Body, Controller, Get, HttpCode, Post, Query, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AdminGuard } from '@payhook/auth';
import type { CashReceiptView, DataEnvelope, ListEnvelope } from '@payhook/contracts';
import { IdParam } from '../../platform/http/id-param';
import { NoStore } from '../../platform/http/no-store';
import { AdminRoute, BODY_ERRORS } from '../../platform/openapi/api-route.decorator';
import { dataOf, listOf } from '../../platform/openapi/schema-builders';
import { CashReceiptOperationsService, type AdminCashReceiptView } from './cash-receipt-operations.service';
import {
  FailCashReceiptRequestDto,
  IssueCashReceiptRequestDto,
  ListAdminCashReceiptsQueryDto,
} from './dto/admin-cash-receipts.dto';

/** The operator's cash receipt queue: live receipts wait here for the tax office's answer. */
@ApiTags('cash receipts')
@Controller('admin/v1/cash-receipts')
@UseGuards(AdminGuard)
export class CashReceiptsAdminController {
  constructor(private readonly operations: CashReceiptOperationsService) {}

  @Get()
  @NoStore()
  @AdminRoute({
    summary: "Cash receipts of one status (default pending), oldest first, keyset-paged, with the buyer's number whole",
    status: 200,
    response: listOf('AdminCashReceipt'),
    errors: ['parameter_invalid', 'parameter_unknown'],
  })
  queue(@Query() query: ListAdminCashReceiptsQueryDto): Promise<ListEnvelope<AdminCashReceiptView>> {
    return this.operations.queue(query);
  }

  @Post(':id/issue')
  @NoStore()
  @AdminRoute({
    summary: 'The tax office issued the pending receipt under this number: it is issued, with its event',
    status: 200,
    response: dataOf('CashReceipt'),
    errors: [...BODY_ERRORS, 'resource_not_found', 'cash_receipt_state_conflict'],
  })
  @HttpCode(200)
  async issue(
    @IdParam('cashReceipt') id: string,
    @Body() body: IssueCashReceiptRequestDto,
  ): Promise<DataEnvelope<CashReceiptView>> {
    return { data: await this.operations.issue(id, body.issueNumber) };
  }

  @Post(':id/fail')
  @NoStore()
  @AdminRoute({
    summary: 'The tax office refused the pending receipt: it fails, with its event; the buyer may ask again',
    status: 200,
    response: dataOf('CashReceipt'),
    errors: [...BODY_ERRORS, 'resource_not_found', 'cash_receipt_state_conflict'],
  })
  @HttpCode(200)
  async fail(
    @IdParam('cashReceipt') id: string,
    @Body() body: FailCashReceiptRequestDto,
  ): Promise<DataEnvelope<CashReceiptView>> {
    return { data: await this.operations.fail(id, body.reason) };
  }
}
