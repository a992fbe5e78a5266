import { Module } from '@nestjs/common';
import { AuditModule } from '../../core/audit';
import { MailModule } from '../../platform/mail/mail.module';
import { AuthThrottleModule } from '../auth-throttle';
import { TeamModule } from '../team';
import { ConsoleAuthService } from './console-auth.service';
import { ConsoleLoginChoicesRepository } from './console-login-choices.repository';
import { ConsolePasswordResetService } from './console-password-reset.service';
import { ConsoleSessionsRepository } from './console-sessions.repository';
import { PasswordResetsRepository } from './password-resets.repository';

/** Who is signed in to the console: password and two-step sign-in, sessions, the choice of merchant, password resets. */
@Module({
  imports: [TeamModule, AuthThrottleModule, AuditModule, MailModule],
  providers: [
    ConsoleAuthService,
    ConsoleSessionsRepository,
    ConsoleLoginChoicesRepository,
    ConsolePasswordResetService,
    PasswordResetsRepository,
  ],
  exports: [ConsoleAuthService, ConsolePasswordResetService],
})
export class ConsoleLoginsModule {}
