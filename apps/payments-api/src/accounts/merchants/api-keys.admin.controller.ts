import { Controller, Delete, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AdminRoute } from '../../platform/openapi/api-route.decorator';
import { dataOf } from '../../platform/openapi/schema-builders';
import { AdminGuard } from '@payhook/auth';
import { MerchantsService } from './merchants.service';
import { toApiKeyView } from './admin.views';
import { IdParam } from '../../platform/http/id-param';

@ApiTags('merchants')
@Controller('admin/v1/api-keys')
@UseGuards(AdminGuard)
export class ApiKeysAdminController {
  constructor(private readonly merchants: MerchantsService) {}

  @Delete(':id')
  @AdminRoute({
    summary: 'Revoke an API key at once (again: the same revoked key)',
    status: 200,
    response: dataOf('ApiKey'),
  })
  async revoke(@IdParam('apiKey') id: string) {
    return { data: toApiKeyView(await this.merchants.revokeApiKey(id)) };
  }
}
