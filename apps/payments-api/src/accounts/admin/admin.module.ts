import { Module } from '@nestjs/common';
import { ApiKeysAdminController } from './api-keys.admin.controller';
import { OnboardingModule } from '../../webhooks/integration-tests';
import { PaymentsModule } from '../../money/payments';
import { TeamModule } from '../team/team.module';
import { MerchantsAdminController } from './merchants.admin.controller';
import { PaymentsAdminController } from './payments.admin.controller';

/** The operator API (/admin/v1), behind ADMIN_TOKEN. */
@Module({
  imports: [PaymentsModule, OnboardingModule, TeamModule],
  controllers: [MerchantsAdminController, ApiKeysAdminController, PaymentsAdminController],
})
export class AdminModule {}
