import { Module } from '@nestjs/common';
import { ApiKeysAdminController } from './api-keys.admin.controller';
import { OnboardingModule } from '../../webhooks/integration-tests';
import { PaymentsModule } from '../../money/payments';
import { TeamModule } from '../team/team.module';
import { MerchantsAdminController } from './merchants.admin.controller';
import { PaymentsAdminController } from './payments.admin.controller';
import { AuthThrottleModule } from '../auth-throttle/auth-throttle.module';
import { MerchantsModule } from '../merchants/merchants.module';

/** The operator API (/admin/v1), behind ADMIN_TOKEN. */
@Module({
  imports: [PaymentsModule, OnboardingModule, TeamModule, AuthThrottleModule, MerchantsModule],
  controllers: [MerchantsAdminController, ApiKeysAdminController, PaymentsAdminController],
})
export class AdminModule {}
