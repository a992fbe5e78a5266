import { Body, Controller, Post, Res, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AdminRoute, BODY_ERRORS } from '../../platform/openapi/api-route.decorator';
import { dataOf } from '../../platform/openapi/schema-builders';
import { AdminGuard } from '@payhook/auth';
import type { DataEnvelope } from '@payhook/contracts';
import type { Response } from 'express';
import type { DepositView } from './deposit.view';
import { DEPOSIT_REPLAY, respond } from './deposit-response';
import { BANK_FEED, DepositsService } from './deposits.service';
import { RecordDepositRequestDto } from './dto/record-deposit.request.dto';

/** The bank side's deposit notifications (live money). */
@ApiTags('deposits')
@Controller('admin/v1/deposits')
@UseGuards(AdminGuard)
export class DepositsAdminController {
  constructor(private readonly deposits: DepositsService) {}

  /** 201 when recorded; 200 with `Idempotent-Replayed: true` when the bank transaction id was already known. */
  @Post()
  @AdminRoute({
    summary:
      'A deposit notification from the bank: matched to its payment by deposit code and amount, or sent to review',
    status: 201,
    response: dataOf('Deposit'),
    replay: DEPOSIT_REPLAY,
    errors: [...BODY_ERRORS, 'idempotency_key_reused'],
  })
  async record(
    @Body() body: RecordDepositRequestDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<DataEnvelope<DepositView>> {
    return respond(response, await this.deposits.record(BANK_FEED, { ...body, receivedAt: new Date(body.receivedAt) }));
  }
}
