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
    const receivedAt = parseReceivedAt(body.receivedAt);
    if (!receivedAt) {
      throw new PayhookError(
        'parameter_invalid',
        'receivedAt must be a real date-time from 2000 up to a day from now, with a zone.',
        'receivedAt',
      );
    }
    return respond(response, await this.deposits.record(BANK_FEED, { ...body, receivedAt }));
  }
}

/**
 * The instant the bank received the money: a real calendar date and time (2026-02-30 or 24:00 are refused,
 * not rolled over), not before 2000 and not more than a day ahead of our clock.
 */
function parseReceivedAt(text: string): Date | null {
  const [, year, month, day, hour, minute, second = '0'] =
    /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?/.exec(text) ?? [];
  if (year === undefined) return null;
  const wall = new Date(Date.UTC(+year, +month - 1, +day, +hour, +minute, +second));
  const exact =
    wall.getUTCFullYear() === +year &&
    wall.getUTCMonth() === +month - 1 &&
    wall.getUTCDate() === +day &&
    wall.getUTCHours() === +hour &&
    wall.getUTCMinutes() === +minute &&
    wall.getUTCSeconds() === +second;
  const instant = new Date(text);
  const time = instant.getTime();
  if (!exact || Number.isNaN(time) || +year < 2000 || time > Date.now() + 86_400_000) return null;
  return instant;
}

export function respond(response: Response, recorded: RecordedDeposit): DataEnvelope<DepositView> {
  if (recorded.replayed) response.status(200).setHeader('Idempotent-Replayed', 'true');
  return { data: recorded.deposit };
}
