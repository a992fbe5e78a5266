import { Body, Controller, Post, UseGuards } from '@nestjs/common';
import { AdminGuard } from '@payhook/auth';
import { PayhookError } from '@payhook/contracts';
import { LoadVouchersRequestDto } from './dto/load-vouchers.request.dto';
import { normalizePin } from './voucher-pin';
import { VouchersRepository } from './vouchers.repository';

@Controller('admin/v1/vouchers')
@UseGuards(AdminGuard)
export class VouchersAdminController {
  constructor(private readonly vouchers: VouchersRepository) {}

  /** 201 with what was loaded; a PIN the registry already holds is skipped and counted, never overwritten. */
  @Post()
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
