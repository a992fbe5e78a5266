import { Controller, Delete, UseGuards } from '@nestjs/common';
import { AdminGuard } from '@payhook/auth';
import { MerchantsService } from '../merchants/merchants.service';
import { toApiKeyView } from './admin.views';
import { IdParam } from '../http/id-param';

@Controller('admin/v1/api-keys')
@UseGuards(AdminGuard)
export class ApiKeysAdminController {
  constructor(private readonly merchants: MerchantsService) {}

  @Delete(':id')
  async revoke(@IdParam('apiKey') id: string) {
    return { data: toApiKeyView(await this.merchants.revokeApiKey(id)) };
  }
}
