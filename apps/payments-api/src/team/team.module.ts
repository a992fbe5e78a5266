import { Module } from '@nestjs/common';
import { MailModule } from '../mail/mail.module';
import { InvitesRepository } from './invites.repository';
import { MembersRepository } from './members.repository';
import { TeamService } from './team.service';
import { TwoStepRepository } from './two-step.repository';
import { TwoStepService } from './two-step.service';

/** A merchant's members, their roles and invites (DESIGN §9). */
@Module({
  imports: [MailModule],
  providers: [MembersRepository, InvitesRepository, TeamService, TwoStepRepository, TwoStepService],
  exports: [MembersRepository, TeamService, TwoStepService],
})
export class TeamModule {}
