import { Body, Controller, Get, HttpCode, Patch, Post, UseGuards } from '@nestjs/common';
import { AdminGuard } from '@payhook/auth';
import { MerchantsService } from '../merchants/merchants.service';
import { IntegrationTestsRepository } from '../onboarding/integration-tests.repository';
import { toApiKeyView, toMerchantView } from './admin.views';
import { ApproveMerchantRequestDto } from './dto/approve-merchant.request.dto';
import { CreateMerchantRequestDto, SettlementTermsRequestDto } from './dto/create-merchant.request.dto';
import { IssueApiKeyRequestDto } from './dto/issue-api-key.request.dto';
import { IdParam } from '../http/id-param';

@Controller('admin/v1/merchants')
@UseGuards(AdminGuard)
export class MerchantsAdminController {
  constructor(
    private readonly merchants: MerchantsService,
    private readonly integrationTests: IntegrationTestsRepository,
  ) {}

  @Post()
  async create(@Body() body: CreateMerchantRequestDto) {
    return { data: toMerchantView(await this.merchants.create(body)) };
  }

  @Get(':id')
  async get(@IdParam('merchant') id: string) {
    const merchant = await this.merchants.get(id);
    return { data: toMerchantView(merchant, await this.integrationTests.latest(id)) };
  }

  /** Changes the fee and the payout delay (both optional). */
  @Patch(':id')
  async setSettlementTerms(@IdParam('merchant') id: string, @Body() body: SettlementTermsRequestDto) {
    const merchant = await this.merchants.setSettlementTerms(id, body);
    return { data: toMerchantView(merchant, await this.integrationTests.latest(id)) };
  }

  @Post(':id/approve')
  @HttpCode(200)
  async approve(@IdParam('merchant') id: string, @Body() body: ApproveMerchantRequestDto) {
    return { data: toMerchantView(await this.merchants.approve(id, body.consoleEmail, body.consolePassword)) };
  }

  @Post(':id/api-keys')
  async issueApiKey(@IdParam('merchant') id: string, @Body() body: IssueApiKeyRequestDto) {
    const { record, key } = await this.merchants.issueApiKey(id, body.mode);
    return { data: { ...toApiKeyView(record), key } };
  }
}
