import { Body, Controller, Post, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AdminRoute, BODY_ERRORS } from '../../platform/openapi/api-route.decorator';
import { dataOf } from '../../platform/openapi/schema-builders';
import { AdminGuard } from '@payhook/auth';
import { PayhookError } from '@payhook/contracts';
import { LoadVouchersRequestDto } from './dto/load-vouchers.request.dto';
import { normalizePin } from './voucher-pin';
import { VouchersRepository } from './vouchers.repository';

@ApiTags('vouchers')
@Controller('admin/v1/vouchers')
@UseGuards(AdminGuard)
export class VouchersAdminController {
  constructor(private readonly vouchers: VouchersRepository) {}

  /** 201 with what was loaded; a PIN the registry already holds is skipped and counted, never overwritten. */
  @Post()
  @AdminRoute({
    summary: 'Load issued vouchers (1 to 1000); a PIN already held is skipped and counted, never overwritten',
    status: 201,
    response: dataOf('VoucherLoad'),
    errors: [...BODY_ERRORS],
  })
  async load(@Body() body: LoadVouchersRequestDto) {
    const vouchers = body.vouchers.map((voucher, index) => {
      const pin = normalizePin(voucher.pin);
      if (!pin) {
        throw new PayhookError('parameter_invalid', 'pin must be 12 to 20 digits.', `vouchers.${index}.pin`);
      }
      return { ...voucher, pin };
    });
    const { loaded, skipped } = await this.vouchers.load(body.livemode ?? true, vouchers);
    return { data: { loaded: loaded.length, skipped, vouchers: loaded } };
  }
}
