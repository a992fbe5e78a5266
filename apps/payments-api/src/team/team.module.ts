import { Module } from '@nestjs/common';
import { MailModule } from '../mail/mail.module';
import { InvitesRepository } from './invites.repository';
import { MembersRepository } from './members.repository';
import { PasswordHashQueue } from './password-hash-queue';
import { TeamService } from './team.service';
import { TwoStepRepository } from './two-step.repository';
import { TwoStepService } from './two-step.service';

/** A merchant's members, their roles, invites and passwords (every hash through one bounded queue). */
@Module({
  imports: [MailModule],
  providers: [MembersRepository, InvitesRepository, TeamService, TwoStepRepository, TwoStepService, PasswordHashQueue],
  exports: [MembersRepository, TeamService, TwoStepService, PasswordHashQueue],
})
export class TeamModule {}
