import { Module } from '@nestjs/common';
import { OnboardingModule } from '../../webhooks/integration-tests';
import { AuthThrottleModule } from '../auth-throttle';
import { TeamModule } from '../team';
import { ApiKeysAdminController } from './api-keys.admin.controller';
import { MerchantsAdminController } from './merchants.admin.controller';
import { MerchantsModule } from './merchants.module';

/**
 * The operator routes of merchants and their keys (/admin/v1, behind ADMIN_TOKEN), beside the
 * merchant ones. A module of their own: a merchant's page shows its latest integration test, and the
 * integration tests' module uses MerchantsModule for its API-key routes.
 */
@Module({
  imports: [MerchantsModule, OnboardingModule, TeamModule, AuthThrottleModule],
  controllers: [MerchantsAdminController, ApiKeysAdminController],
})
export class MerchantsAdminModule {}
