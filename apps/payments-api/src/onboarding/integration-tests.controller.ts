import { Controller, Get, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiKeyGuard, CurrentAuth, TestModeOnly, type AuthContext } from '@payhook/auth';
import type { DataEnvelope } from '@payhook/contracts';
import type { IntegrationTestView } from './integration-test.record';
import { IntegrationTestsService } from './integration-tests.service';
import { IdParam } from '../http/id-param';

/** The onboarding gate (spec §5.3): run in test mode; passing opens live payments. */
@Controller('v1/integration-tests')
@UseGuards(ApiKeyGuard)
@TestModeOnly()
export class IntegrationTestsController {
  constructor(private readonly tests: IntegrationTestsService) {}

  @Post()
  @HttpCode(202)
  async start(@CurrentAuth() auth: AuthContext) {
    return { data: await this.tests.start(auth) };
  }

  @Get(':id')
  async get(
    @CurrentAuth() auth: AuthContext,
    @IdParam('integrationTest') id: string,
  ): Promise<DataEnvelope<IntegrationTestView>> {
    return { data: await this.tests.get(auth, id) };
  }
}
