// The team feature's door: what the other accounts features and the surfaces may use of it.
// Its module, for the modules whose providers use its services.
export { TeamModule } from './team.module';
// Members, invites and roles, for the console's team pages, its session guard and its layout.
export { INVITE_UNUSABLE, TeamService, type IssuedInvite } from './team.service';
export { TeamException } from './team.exception';
export { isMemberRole, MEMBER_ROLES, roleAllows, type MemberRole } from './member-role';
export type { Invite } from './invites.repository';
// Two-step sign-in, which console logins check, the operator resets and the console's security page sets up.
export { TwoStepService, type TwoStepSetup } from './two-step.service';
// The logins of an address, counted under its lock, which sign-in, password resets and a merchant's approval
// keep to, and the queue that bounds password hashing, which console logins share.
export {
  countLoginsLocked,
  lockAddress,
  MAX_LOGINS_PER_ADDRESS,
  MembersRepository,
  type Member,
} from './members.repository';
export { PasswordHashQueue } from './password-hash-queue';
