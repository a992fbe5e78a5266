import { Module } from '@nestjs/common';
import { ConsoleLoginsModule } from '../../accounts/console-logins';
import { EventsModule } from '../../webhooks/events';
import { MailModule } from '../../platform/mail/mail.module';
import { OnboardingModule } from '../../webhooks/integration-tests';
import { PaymentsModule } from '../../money/payments';
import { RefundsModule } from '../../money/refunds';
import { SettlementsModule } from '../../money/settlements';
import { TeamModule } from '../../accounts/team';
import { WebhookEndpointsModule } from '../../webhooks/endpoints';
import { ConsoleAuditController } from './audit/console-audit.controller';
import { ConsoleInviteController } from './team/console-invite.controller';
import { ConsolePasswordResetController } from './auth/console-password-reset.controller';
import { ConsoleSecurityController } from './security/console-security.controller';
import { ConsoleTeamController } from './team/console-team.controller';
import { WebhookNoticesModule } from '../../webhooks/notices';
import { ConsoleAuthController } from './auth/console-auth.controller';
import { ConsoleDevelopersController } from './developers/console-developers.controller';
import { ConsoleDevelopersService } from './developers/console-developers.service';
import { ConsoleFallbackController } from './shared/console-fallback.controller';
import { ConsolePaymentsController } from './payments/console-payments.controller';
import { ConsolePaymentsService } from './payments/console-payments.service';
import { ConsoleRefundsController } from './refunds/console-refunds.controller';
import { ConsoleRefundsService } from './refunds/console-refunds.service';
import { ConsoleSessionCookie } from './shared/console-session-cookie';
import { ConsoleSessionGuard } from './shared/console-session.guard';
import { ConsoleSettingsController } from './settings/console-settings.controller';
import { ConsoleSettlementsController } from './settlements/console-settlements.controller';
import { ConsoleSettlementsService } from './settlements/console-settlements.service';
import { AuditModule } from '../../core/audit';
import { CashReceiptsModule } from '../../money/cash-receipts';
import { EscrowModule } from '../../money/escrow';
import { ConsoleEscrowController } from './escrow/console-escrow.controller';
import { ConsoleEscrowService } from './escrow/console-escrow.service';
import { AuthThrottleModule } from '../../accounts/auth-throttle';
import { MerchantsModule } from '../../accounts/merchants';

/** The merchant console under /console: server-rendered pages over the same services as the API. */
@Module({
  imports: [
    ConsoleLoginsModule,
    PaymentsModule,
    RefundsModule,
    CashReceiptsModule,
    EscrowModule,
    SettlementsModule,
    EventsModule,
    WebhookEndpointsModule,
    OnboardingModule,
    TeamModule,
    WebhookNoticesModule,
    MailModule,
    AuditModule,
    AuthThrottleModule,
    MerchantsModule,
  ],
  controllers: [
    ConsoleAuthController,
    ConsolePaymentsController,
    ConsoleRefundsController,
    ConsoleEscrowController,
    ConsoleSettlementsController,
    ConsoleDevelopersController,
    ConsoleSettingsController,
    ConsoleTeamController,
    ConsoleInviteController,
    ConsolePasswordResetController,
    ConsoleSecurityController,
    ConsoleAuditController,
    // Last: it answers every /console address the others do not.
    ConsoleFallbackController,
  ],
  providers: [
    ConsoleSessionCookie,
    ConsoleSessionGuard,
    ConsolePaymentsService,
    ConsoleRefundsService,
    ConsoleEscrowService,
    ConsoleSettlementsService,
    ConsoleDevelopersService,
  ],
})
export class ConsoleModule {}
