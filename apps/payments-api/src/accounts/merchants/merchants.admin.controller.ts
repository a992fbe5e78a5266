import { Body, Controller, Get, HttpCode, Patch, Post, Req, UseGuards } from '@nestjs/common';
import type { Request } from 'express';
import { ApiTags } from '@nestjs/swagger';
import { AdminRoute, BODY_ERRORS } from '../../platform/openapi/api-route.decorator';
import { dataOf } from '../../platform/openapi/schema-builders';
import { AdminGuard } from '@payhook/auth';
import { MerchantsService } from './merchants.service';
import { IntegrationTestsRepository } from '../../webhooks/integration-tests';
import { toApiKeyView, toMerchantView } from './admin.views';
import { ApproveMerchantRequestDto } from './dto/approve-merchant.request.dto';
import { CreateMerchantRequestDto, MerchantTermsRequestDto } from './dto/create-merchant.request.dto';
import { IssueApiKeyRequestDto } from './dto/issue-api-key.request.dto';
import { ResetMemberTwoStepRequestDto } from './dto/reset-member-two-step.request.dto';
import { TwoStepService } from '../team';
import { IdParam } from '../../platform/http/id-param';
import { NoStore } from '../../platform/http/no-store';

@ApiTags('merchants')
@Controller('admin/v1/merchants')
@UseGuards(AdminGuard)
export class MerchantsAdminController {
  constructor(
    private readonly merchants: MerchantsService,
    private readonly integrationTests: IntegrationTestsRepository,
    private readonly twoStep: TwoStepService,
  ) {}

  @Post()
  @AdminRoute({
    summary: 'Onboard a merchant (status review); fee and payout delay default to the configured terms',
    status: 201,
    response: dataOf('Merchant'),
    errors: [...BODY_ERRORS],
  })
  async create(@Body() body: CreateMerchantRequestDto) {
    return { data: toMerchantView(await this.merchants.create(body)) };
  }

  @Get(':id')
  @AdminRoute({
    summary: 'A merchant with its latest integration test',
    status: 200,
    response: dataOf('Merchant'),
  })
  async get(@IdParam('merchant') id: string) {
    const merchant = await this.merchants.get(id);
    return { data: toMerchantView(merchant, await this.integrationTests.latest(id)) };
  }

  /** Changes the fee and the payout delay (both optional). */
  @Patch(':id')
  @AdminRoute({
    summary:
      'Change the fee and the payout delay (settlements made after the change use them) and whether the merchant must issue cash receipts unasked',
    status: 200,
    response: dataOf('Merchant'),
    errors: [...BODY_ERRORS],
  })
  async setTerms(@IdParam('merchant') id: string, @Body() body: MerchantTermsRequestDto) {
    const merchant = await this.merchants.setTerms(id, body);
    return { data: toMerchantView(merchant, await this.integrationTests.latest(id)) };
  }

  @Post(':id/approve')
  @AdminRoute({
    summary: 'Approve a merchant in review and give it a console login (status integrating)',
    status: 200,
    response: dataOf('Merchant'),
    errors: [...BODY_ERRORS, 'merchant_state_conflict'],
  })
  @HttpCode(200)
  async approve(@IdParam('merchant') id: string, @Body() body: ApproveMerchantRequestDto) {
    return { data: toMerchantView(await this.merchants.approve(id, body.consoleEmail, body.consolePassword)) };
  }

  /** A member locked out by a lost phone and lost recovery codes: two-step login off, audited as the operator's. */
  @Post(':id/members/two-step-reset')
  @AdminRoute({
    summary:
      "Turn a member's two-step login off (phone and recovery codes lost); the member signs in with the password",
    status: 204,
    errors: [...BODY_ERRORS],
  })
  @HttpCode(204)
  async resetMemberTwoStep(
    @IdParam('merchant') id: string,
    @Body() body: ResetMemberTwoStepRequestDto,
    @Req() request: Request,
  ): Promise<void> {
    await this.merchants.get(id);
    await this.twoStep.resetByOperator(id, body.email, request.ip ?? null);
  }

  @Post(':id/api-keys')
  @NoStore()
  @AdminRoute({
    summary: 'Issue an API key; the plain key is in this answer only',
    status: 201,
    response: dataOf('IssuedApiKey'),
    errors: [...BODY_ERRORS],
  })
  async issueApiKey(@IdParam('merchant') id: string, @Body() body: IssueApiKeyRequestDto) {
    const { record, key } = await this.merchants.issueApiKey(id, body.mode);
    return { data: { ...toApiKeyView(record), key } };
  }
}
