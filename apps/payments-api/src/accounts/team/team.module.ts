import { Module } from '@nestjs/common';
import { MailModule } from '../../platform/mail/mail.module';
import { InvitesRepository } from './invites.repository';
import { MembersRepository } from './members.repository';
import { PasswordHashQueue } from './password-hash-queue';
import { RecoveryCodeHashes } from './recovery-code-hashes';
import { RecoveryCodesKeyer } from './recovery-codes.keyer';
import { TeamService } from './team.service';
import { TwoStepRepository } from './two-step.repository';
import { TwoStepService } from './two-step.service';
import { AuditModule } from '../../core/audit';

/** A merchant's members, their roles, invites and passwords (every hash through one bounded queue). */
@Module({
  imports: [MailModule, AuditModule],
  providers: [
    MembersRepository,
    InvitesRepository,
    TeamService,
    TwoStepRepository,
    TwoStepService,
    PasswordHashQueue,
    RecoveryCodeHashes,
    RecoveryCodesKeyer,
  ],
  exports: [MembersRepository, TeamService, TwoStepService, PasswordHashQueue],
})
export class TeamModule {}
