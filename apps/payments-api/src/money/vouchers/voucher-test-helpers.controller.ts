import { Body, Controller, Post, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiKeyGuard, TestModeOnly } from '@payhook/auth';
import { randomInt } from 'node:crypto';
import { IssueTestVoucherRequestDto } from './dto/load-vouchers.request.dto';
import { VouchersRepository } from './vouchers.repository';
import { ApiRoute, BODY_ERRORS } from '../../platform/openapi/api-route.decorator';
import { dataOf } from '../../platform/openapi/schema-builders';
import { NoStore } from '../../platform/http/no-store';

/** Test vouchers, so a merchant can pay a test payment by voucher before going live (test keys only). */
@ApiTags('test helpers')
@Controller('v1/test-helpers/vouchers')
@UseGuards(ApiKeyGuard)
@TestModeOnly()
export class VoucherTestHelpersController {
  constructor(private readonly vouchers: VouchersRepository) {}

  /** 201 with the PIN: the one time it is shown. */
  @Post()
  @NoStore()
  @ApiRoute({
    summary: 'A test voucher with a fresh 16-digit PIN, shown this once',
    status: 201,
    response: dataOf('TestVoucher'),
    errors: [...BODY_ERRORS, 'test_mode_only'],
  })
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
