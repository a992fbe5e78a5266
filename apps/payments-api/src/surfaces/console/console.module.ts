import { Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { EventsModule } from '../../webhooks/events/events.module';
import { MailModule } from '../../platform/mail/mail.module';
import { OnboardingModule } from '../../webhooks/integration-tests/onboarding.module';
import { PaymentsModule } from '../../money/payments/payments.module';
import { RefundsModule } from '../../money/refunds/refunds.module';
import { SettlementsModule } from '../../money/settlements/settlements.module';
import { TeamModule } from '../../accounts/team/team.module';
import { WebhookEndpointsModule } from '../../webhooks/endpoints/webhook-endpoints.module';
import { ConsoleAuditController } from './console-audit.controller';
import { ConsoleInviteController } from './console-invite.controller';
import { ConsolePasswordResetController } from './console-password-reset.controller';
import { ConsolePasswordResetService } from './console-password-reset.service';
import { PasswordResetsRepository } from './password-resets.repository';
import { ConsoleSecurityController } from './console-security.controller';
import { ConsoleTeamController } from './console-team.controller';
import { WebhookNoticesModule } from '../../webhooks/notices/webhook-notices.module';
import { ConsoleAuthController } from './console-auth.controller';
import { ConsoleAuthService } from './console-auth.service';
import { ConsoleLoginChoicesRepository } from './console-login-choices.repository';
import { ConsoleDevelopersController } from './console-developers.controller';
import { ConsoleDevelopersService } from './console-developers.service';
import { ConsoleFallbackController } from './console-fallback.controller';
import { ConsolePaymentMoneyRepository } from './console-payment-money.repository';
import { ConsolePaymentsController } from './console-payments.controller';
import { ConsolePaymentsService } from './console-payments.service';
import { ConsoleRefundsController } from './console-refunds.controller';
import { ConsoleRefundsService } from './console-refunds.service';
import { ConsoleSessionCookie } from './console-session-cookie';
import { ConsoleSessionGuard } from './console-session.guard';
import { ConsoleSessionsRepository } from './console-sessions.repository';
import { ConsoleSettingsController } from './console-settings.controller';
import { ConsoleSettlementsController } from './console-settlements.controller';
import { ConsoleSettlementsService } from './console-settlements.service';
import { ConsoleWebhookBannerInterceptor } from './console-webhook-banner';

/** The merchant console under /console: server-rendered pages over the same services as the API. */
@Module({
  imports: [
    PaymentsModule,
    RefundsModule,
    SettlementsModule,
    EventsModule,
    WebhookEndpointsModule,
    OnboardingModule,
    TeamModule,
    WebhookNoticesModule,
    MailModule,
  ],
  controllers: [
    ConsoleAuthController,
    ConsolePaymentsController,
    ConsoleRefundsController,
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
    ConsoleAuthService,
    ConsoleSessionCookie,
    ConsoleSessionsRepository,
    ConsoleLoginChoicesRepository,
    ConsoleSessionGuard,
    ConsolePaymentsService,
    ConsolePaymentMoneyRepository,
    ConsoleRefundsService,
    ConsoleSettlementsService,
    ConsoleDevelopersService,
    ConsolePasswordResetService,
    PasswordResetsRepository,
    // Runs on every route (Nest has no module-scoped interceptors); it does nothing without a console session.
    { provide: APP_INTERCEPTOR, useClass: ConsoleWebhookBannerInterceptor },
  ],
})
export class ConsoleModule {}
