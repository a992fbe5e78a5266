import { Inject, Injectable, Logger } from '@nestjs/common';
import { newId } from '@payhook/contracts';
import { isUniqueViolation } from '@payhook/persistence';
import { createHash, randomBytes } from 'node:crypto';
import { AuditLog, type AuditActor } from '../../core/audit';
import { PaymentsApiEnv } from '../../platform/config/payments-api.env';
import { Mailer } from '../../platform/mail/mailer';
import type { Locale } from '../../platform/i18n/locale';
// Direct, not through the merchants door: that door's MerchantsModule loads MerchantsService, which counts an
// address's logins through the team door; through both doors a load that starts here reaches TeamModule
// before TeamService is defined.
import { hashPassword } from '../merchants/password-hash';
import { inviteEmail } from './invite-email';
import { InvitesRepository, type Invite } from './invites.repository';
import type { MemberRole } from './member-role';
import { MAX_LOGINS_PER_ADDRESS, MembersRepository, type Member } from './members.repository';
import { PasswordHashQueue } from './password-hash-queue';
import { TeamException } from './team.exception';

/** An invite link works once, for 72 hours. */
export const INVITE_VALID_HOURS = 72;

/**
 * What an invite link that cannot be used says, whichever way it cannot (used, expired, unknown, or
 * taken by a request a moment earlier): the same page for all, so it tells nothing about the others.
 */
export const INVITE_UNUSABLE =
  'This invite link was used already, has expired (links work for 72 hours) or is unknown. Ask an owner of the account for a new one.';

/** Invites a team may make in a day, and an address may get in a day from all teams together. */
const INVITES_PER_MERCHANT_PER_DAY = 20;
const INVITES_PER_ADDRESS_PER_DAY = 3;

/** New links one invite may be sent (each stops the one before). */
const MAX_INVITE_RESENDS = 3;

/** Beyond a hash's longest wait in the queue: a claimant that has not finished by then has failed. */
const INVITE_CLAIM_SECONDS = 60;

export const inviteTokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * An invite made. With e-mail on, its link goes only to the invited address (whoever opens it proves
 * the address); with e-mail off, `link` is shown once to the inviting owner, the only way to pass it on.
 */
export interface IssuedInvite {
  invite: { id: string; email: string; role: MemberRole };
  /** Only when e-mail is off. */
  link?: string;
  /** E-mail is on and the server took the invite (false with e-mail on: not sent, resend it). */
  emailed: boolean;
}

const EMAIL = /^[^\s@\p{C}]+@[^\s@\p{C}]+\.[^\s@\p{C}]+$/u;

/** Who may sign in to a merchant's console, and with which role. Every change is audited. */
@Injectable()
export class TeamService {
  private readonly logger = new Logger(TeamService.name);

  constructor(
    private readonly members: MembersRepository,
    private readonly invites: InvitesRepository,
    private readonly audit: AuditLog,
    private readonly mailer: Mailer,
    private readonly passwordHashes: PasswordHashQueue,
    @Inject(PaymentsApiEnv) private readonly env: PaymentsApiEnv,
  ) {}

  list(merchantId: string): Promise<Member[]> {
    return this.members.list(merchantId);
  }

  /** The e-mail addresses of the team's members with these ids (removed members are not found), by id. */
  memberEmails(merchantId: string, memberIds: string[]): Promise<Map<string, string>> {
    return this.members.emailsById(merchantId, memberIds);
  }

  /** One member of the team, or null. */
  member(merchantId: string, memberId: string): Promise<Member | null> {
    return this.members.find(merchantId, memberId);
  }

  /** The latest invites, open, used, revoked or expired. */
  recentInvites(merchantId: string): Promise<Invite[]> {
    return this.invites.list(merchantId);
  }

  /** The e-mail goes in `locale`, the language the inviting member reads the console in (the invited has none yet). */
  async invite(
    merchantId: string,
    rawEmail: string,
    role: MemberRole,
    by: AuditActor,
    locale: Locale,
  ): Promise<IssuedInvite> {
    const email = rawEmail.trim().toLowerCase();
    if (!EMAIL.test(email) || email.length > 254) {
      throw new TeamException('parameter_invalid', 'Enter the e-mail address of the person to invite.');
    }
    // Only this team's members are named here: whether an address has a login elsewhere is not
    // this owner's to learn, and takes nothing from the invite (one address, a login per merchant).
    if (await this.members.findByAddress(merchantId, email)) {
      throw new TeamException('parameter_invalid', `${email} is already a member of this team.`);
    }
    const token = randomBytes(32).toString('base64url');
    const id = newId('invite');
    await this.audit.audited({ ...by, merchantId, action: 'member.invited', target: email }, async (sql) => {
      const made = await this.invites.madeToday(sql, merchantId, email);
      // Each invite may e-mail an address from payhook's own: neither a team nor an address gets a flood.
      if (made.byMerchant >= INVITES_PER_MERCHANT_PER_DAY || made.toAddress >= INVITES_PER_ADDRESS_PER_DAY) {
        throw new TeamException(
          'rate_limited',
          'Too many invites today, from this team or to this address; try again tomorrow.',
        );
      }
      const linkShown = !this.mailer.enabled;
      await this.invites.insert(
        sql,
        { id, tokenHash: inviteTokenHash(token), merchantId, email, role, invitedBy: by.actor, linkShown },
        INVITE_VALID_HOURS,
      );
    });
    return this.deliver({ id, email, role }, token, locale);
  }

  /**
   * The open invite under a new link (the old one stops), sent again: an e-mail lost or never sent.
   * The same invite, so it takes no more of the team's or the address's daily invites; at most
   * MAX_INVITE_RESENDS times. The e-mail goes in `locale`, as invite's.
   */
  async resendInvite(merchantId: string, id: string, by: AuditActor, locale: Locale): Promise<IssuedInvite> {
    const token = randomBytes(32).toString('base64url');
    const renewal = {
      tokenHash: inviteTokenHash(token),
      linkShown: !this.mailer.enabled,
      validHours: INVITE_VALID_HOURS,
      maxResends: MAX_INVITE_RESENDS,
    };
    const invite = await this.audit.audited(
      (renewed: Invite) => ({ ...by, merchantId, action: 'member.invited', target: renewed.email }),
      async (sql) => {
        const renewed = await this.invites.renewLink(sql, merchantId, id, renewal);
        if (!renewed) {
          throw new TeamException(
            'merchant_state_conflict',
            `This invite is no longer open, or was sent again ${MAX_INVITE_RESENDS} times already: revoke it and invite again.`,
          );
        }
        return renewed;
      },
    );
    return this.deliver(invite, token, locale);
  }

  /** With e-mail on, the link goes only to the invited address; with e-mail off, it is shown once. */
  private async deliver(
    invite: { id: string; email: string; role: MemberRole },
    token: string,
    locale: Locale,
  ): Promise<IssuedInvite> {
    const link = `${this.env.BASE_URL}/console/invite/${token}`;
    const { id, email, role } = invite;
    if (!this.mailer.enabled) return { invite: { id, email, role }, link, emailed: false };
    return { invite: { id, email, role }, emailed: await this.emailInvite(locale, email, role, link) };
  }

  /**
   * The invite by e-mail (SMTP_URL is set). Never into the log: the link is a credential. A refused
   * e-mail costs a log line, not the invite.
   */
  private async emailInvite(locale: Locale, email: string, role: MemberRole, link: string): Promise<boolean> {
    try {
      await this.mailer.send(inviteEmail(locale, { to: email, role, link, validHours: INVITE_VALID_HOURS }));
      return true;
    } catch (error) {
      this.logger.warn(`the invite e-mail to ${email} was not sent: ${String(error)}`);
      return false;
    }
  }

  async revokeInvite(merchantId: string, id: string, by: AuditActor): Promise<void> {
    await this.audit.audited(
      (invite: Invite) => ({ ...by, merchantId, action: 'member.invite_revoked', target: invite.email }),
      async (sql) => {
        const revoked = await this.invites.revoke(sql, merchantId, id);
        if (!revoked) throw new TeamException('resource_not_found', 'No such open invite.');
        return revoked;
      },
    );
  }

  /** The invite behind a link, while it can be used; null for an unknown, used, revoked or expired one. */
  usableInvite(token: string) {
    return this.invites.findUsable(inviteTokenHash(token));
  }

  /**
   * Sets the invited person's password and makes them a member. The link is claimed first, so of
   * many requests on one link only the claimant's password is hashed, and the hash waits its turn in
   * the queue logins use (429 when it is full): one link cannot stall every merchant's logins.
   */
  async accept(token: string, password: string, clientAddress: string | null): Promise<Member> {
    const tokenHash = inviteTokenHash(token);
    const claim = await this.invites.claim(tokenHash, INVITE_CLAIM_SECONDS);
    if (!claim) throw new TeamException('resource_not_found', INVITE_UNUSABLE);
    try {
      return await this.join(tokenHash, password, clientAddress);
    } catch (error) {
      await this.invites.releaseClaim(claim);
      throw error;
    }
  }

  private async join(tokenHash: string, password: string, clientAddress: string | null): Promise<Member> {
    const passwordHash = await this.passwordHashes.run(clientAddress ?? 'unknown', () => hashPassword(password));
    const memberId = newId('member');
    try {
      const invite = await this.audit.audited(
        (used: Invite & { merchantId: string }) => ({
          actor: used.email,
          clientAddress,
          merchantId: used.merchantId,
          action: 'member.joined',
          target: memberId,
        }),
        async (sql) => {
          const used = await this.invites.accept(sql, tokenHash);
          if (!used) throw new TeamException('resource_not_found', INVITE_UNUSABLE);
          if ((await this.members.lockAddressAndCount(sql, used.email)) >= MAX_LOGINS_PER_ADDRESS) {
            throw new TeamException('resource_not_found', INVITE_UNUSABLE);
          }
          await this.members.insert(sql, {
            id: memberId,
            merchantId: used.merchantId,
            email: used.email,
            passwordHash,
            role: used.role,
            // A link shown to the inviting owner proves nothing about whose address this is.
            addressProven: !used.linkShown,
          });
          return used;
        },
      );
      return (await this.members.find(invite.merchantId, memberId))!;
    } catch (error) {
      // A member of this team already (joined by another link meanwhile): the page of an unusable link.
      if (isUniqueViolation(error)) throw new TeamException('resource_not_found', INVITE_UNUSABLE);
      throw error;
    }
  }

  /** A member's own language for the console and its e-mails (null: the browser's); a preference, not audited. */
  chooseLanguage(memberId: string, locale: Locale | null): Promise<void> {
    return this.members.setLocale(memberId, locale);
  }

  /**
   * A member's new password (the caller checked the current one), hashed in the queue logins use,
   * audited. The caller ends the member's other sessions.
   */
  async changePassword(member: { id: string; merchantId: string }, password: string, by: AuditActor): Promise<void> {
    const passwordHash = await this.passwordHashes.run(by.clientAddress ?? 'unknown', () => hashPassword(password));
    await this.audit.audited(
      { ...by, merchantId: member.merchantId, action: 'member.password_changed', target: member.id },
      (sql) => this.members.setPasswordHash(sql, member.merchantId, member.id, passwordHash),
    );
  }

  async changeRole(merchantId: string, memberId: string, role: MemberRole, by: AuditActor): Promise<void> {
    const entry = { ...by, merchantId, action: 'member.role_changed' as const, target: memberId };
    await this.audit.audited(
      (changed: boolean) => (changed ? entry : null),
      async (sql) => {
        await this.members.lockTeam(sql, merchantId);
        const member = await this.members.findIn(sql, merchantId, memberId);
        if (!member) throw new TeamException('resource_not_found', 'No such member.');
        if (member.role === role) return false;
        if (member.role === 'owner' && (await this.members.otherOwners(sql, merchantId, memberId)) === 0) {
          throw new TeamException(
            'merchant_state_conflict',
            'The last owner keeps the owner role: make another member owner first.',
          );
        }
        await this.members.setRole(sql, merchantId, memberId, role);
        // An owner no more: the invites they made (perhaps as owner) end with that power.
        if (member.role === 'owner') await this.invites.revokeMadeBy(sql, merchantId, member.email);
        return true;
      },
    );
  }

  /** Audited with the member's e-mail as target: the id names nobody the pages can show once the member is gone. */
  async remove(merchantId: string, memberId: string, by: AuditActor): Promise<void> {
    const entry = (removed: Member) => ({
      ...by,
      merchantId,
      action: 'member.removed' as const,
      target: removed.email,
    });
    await this.audit.audited(entry, async (sql) => {
      await this.members.lockTeam(sql, merchantId);
      const member = await this.members.findIn(sql, merchantId, memberId);
      if (!member) throw new TeamException('resource_not_found', 'No such member.');
      if (member.role === 'owner' && (await this.members.otherOwners(sql, merchantId, memberId)) === 0) {
        throw new TeamException(
          'merchant_state_conflict',
          'The last owner cannot be removed: make another member owner first.',
        );
      }
      await this.members.delete(sql, merchantId, memberId);
      // A removed member cannot come back through an invite they made on their way out.
      await this.invites.revokeMadeBy(sql, merchantId, member.email);
      return member;
    });
  }
}
