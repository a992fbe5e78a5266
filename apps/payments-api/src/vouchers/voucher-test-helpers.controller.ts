import { Body, Controller, Post, UseGuards } from '@nestjs/common';
import { ApiKeyGuard, TestModeOnly } from '@payhook/auth';
import { randomInt } from 'node:crypto';
import { IssueTestVoucherRequestDto } from './dto/load-vouchers.request.dto';
import { VouchersRepository } from './vouchers.repository';

/** Test vouchers, so a merchant can pay a test payment by voucher before going live (test keys only). */
@Controller('v1/test-helpers/vouchers')
@UseGuards(ApiKeyGuard)
@TestModeOnly()
export class VoucherTestHelpersController {
  constructor(private readonly vouchers: VouchersRepository) {}

  /** 201 with the PIN: the one time it is shown. */
  @Post()
  async issue(@Body() body: IssueTestVoucherRequestDto) {
    for (;;) {
      const pin = Array.from({ length: 16 }, () => randomInt(10)).join('');
      const kind = body.kind ?? 'culture';
      const { loaded } = await this.vouchers.load(false, [{ pin, kind, faceValue: body.faceValue }]);
      // A 16-digit collision with an existing test PIN just draws again.
      if (loaded[0]) return { data: { ...loaded[0], pin } };
    }
  }
}
