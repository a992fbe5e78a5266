import { Body, Controller, Post, Res, UseGuards } from '@nestjs/common';
import { AdminGuard } from '@payhook/auth';
import { PayhookError, type DataEnvelope } from '@payhook/contracts';
import type { Response } from 'express';
import type { DepositView } from './deposit.view';
import { BANK_FEED, DepositsService, type RecordedDeposit } from './deposits.service';
import { RecordDepositRequestDto } from './dto/record-deposit.request.dto';

/** The bank side's deposit notifications (live money). */
@Controller('admin/v1/deposits')
@UseGuards(AdminGuard)
export class DepositsAdminController {
  constructor(private readonly deposits: DepositsService) {}

  /** 201 when recorded; 200 with `Idempotent-Replayed: true` when the bank transaction id was already known. */
  @Post()
  async record(
    @Body() body: RecordDepositRequestDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<DataEnvelope<DepositView>> {
    const receivedAt = new Date(body.receivedAt);
    if (Number.isNaN(receivedAt.getTime())) {
      throw new PayhookError('parameter_invalid', 'receivedAt is not a real date-time.', 'receivedAt');
    }
    return respond(response, await this.deposits.record(BANK_FEED, { ...body, receivedAt }));
  }
}

export function respond(response: Response, recorded: RecordedDeposit): DataEnvelope<DepositView> {
  if (recorded.replayed) response.status(200).setHeader('Idempotent-Replayed', 'true');
  return { data: recorded.deposit };
}
