import { Controller, Get, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiKeyGuard, CurrentAuth, TestModeOnly, type AuthContext } from '@payhook/auth';
import type { DataEnvelope } from '@payhook/contracts';
import type { IntegrationTestView } from './integration-test.record';
import { IntegrationTestsService } from './integration-tests.service';
import { IdParam } from '../../platform/http/id-param';
import { ApiRoute } from '../../platform/openapi/api-route.decorator';
import { dataOf } from '../../platform/openapi/schema-builders';

/** The onboarding gate (spec §5.3): run in test mode; passing opens live payments. */
@ApiTags('onboarding')
@Controller('v1/integration-tests')
@UseGuards(ApiKeyGuard)
@TestModeOnly()
export class IntegrationTestsController {
  constructor(private readonly tests: IntegrationTestsService) {}

  @Post()
  @HttpCode(202)
  @ApiRoute({
    summary:
      'Start the integration test against your test webhook endpoint (a run in progress is answered instead); passing opens live payments',
    status: 202,
    response: dataOf('IntegrationTestStarted'),
    errors: ['test_mode_only'],
  })
  async start(@CurrentAuth() auth: AuthContext) {
    return { data: await this.tests.start(auth) };
  }

  @Get(':id')
  @ApiRoute({
    summary: 'An integration test run and each scenario with what was sent and what came back',
    status: 200,
    response: dataOf('IntegrationTest'),
    errors: ['resource_not_found', 'test_mode_only'],
  })
  async get(
    @CurrentAuth() auth: AuthContext,
    @IdParam('integrationTest') id: string,
  ): Promise<DataEnvelope<IntegrationTestView>> {
    return { data: await this.tests.get(auth, id) };
  }
}
