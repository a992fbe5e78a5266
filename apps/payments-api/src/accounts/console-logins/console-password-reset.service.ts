import { Inject, Injectable, Logger } from '@nestjs/common';
import { clientKey } from '@payhook/auth';
import { createHash, randomBytes } from 'node:crypto';
import { AuditLog } from '../../core/audit';
import { PaymentsApiEnv } from '../../platform/config/payments-api.env';
import type { Locale } from '../../platform/i18n/locale';
import { Mailer } from '../../platform/mail/mailer';
import { hashPassword } from '../merchants';
import { lockAddress, MembersRepository, PasswordHashQueue } from '../team';
import { ConsoleSessionsRepository } from './console-sessions.repository';
import { passwordResetEmail } from './login-emails';
import { PasswordResetsRepository } from './password-resets.repository';

/** How long a reset link works, and how many links a client may ask for, and an address get, per hour. */
export const RESET_LINK_VALID_MINUTES = 60;
const REQUESTS_PER_CLIENT_PER_HOUR = 10;
const LINKS_PER_ADDRESS_PER_HOUR = 3;

/** Beyond a hash's longest wait in the queue: a claimant that has not finished by then has failed. */
const RESET_CLAIM_SECONDS = 60;

const tokenHashOf = (token: string) => createHash('sha256').update(token).digest('hex');

/** What a request for a link gets: the same for every address, except when this client asked too often. */
export type ResetRequestResult = { kind: 'requested' } | { kind: 'throttled'; until: Date };

/**
 * A forgotten console password: a single-use link, e-mailed to the login's address, that sets a new
 * one. Nothing here tells whether an address has a login: every request gets the same answer.
 */
@Injectable()
export class ConsolePasswordResetService {
  private readonly logger = new Logger(ConsolePasswordResetService.name);

  constructor(
    private readonly resets: PasswordResetsRepository,
    private readonly members: MembersRepository,
    private readonly sessions: ConsoleSessionsRepository,
    private readonly passwordHashes: PasswordHashQueue,
    private readonly audit: AuditLog,
    private readonly mailer: Mailer,
    @Inject(PaymentsApiEnv) private readonly env: PaymentsApiEnv,
  ) {}

  /** Links can only be e-mailed: without SMTP_URL there is no reset (another owner removes and invites again). */
  get available(): boolean {
    return this.mailer.enabled;
  }

  /**
   * E-mails a reset link when the address has a login and has not had three in the last hour;
   * otherwise sends nothing, with the same answer. A client asking more than ten times an hour is
   * throttled whatever the addresses (it learns nothing about them from that). The e-mail is in the
   * language a login of the address chose, else in `locale` (the asking browser's).
   */
  async request(rawEmail: string, address: string, locale: Locale): Promise<ResetRequestResult> {
    const email = rawEmail.trim().toLowerCase();
    const client = clientKey(address);
    const valid = /^[^\s@\p{C}]+@[^\s@\p{C}]+$/u.test(email) && email.length <= 254;
    const token = randomBytes(32).toString('base64url');
    let language = locale;
    const recorded = await this.resets.record(
      {
        client,
        email: valid ? email : '',
        perClientPerHour: REQUESTS_PER_CLIENT_PER_HOUR,
        perAddressPerHour: LINKS_PER_ADDRESS_PER_HOUR,
      },
      async () => {
        const logins = valid ? await this.members.findLogins(email) : [];
        // Only a login whose address was proven is set by a link to that address.
        const proven = logins.filter((login) => login.addressProven);
        language = proven.find((login) => login.locale !== null)?.locale ?? locale;
        return proven.length > 0
          ? { tokenHash: tokenHashOf(token), validMinutes: RESET_LINK_VALID_MINUTES }
          : undefined;
      },
    );
    if (recorded.kind === 'throttled') return recorded;
    if (recorded.link) this.emailLink(language, email, `${this.env.BASE_URL}/console/reset/${token}`);
    return { kind: 'requested' };
  }

  /** The login's e-mail behind a link that can still be used, or null. */
  usable(token: string): Promise<{ email: string } | null> {
    return this.resets.findUsable(tokenHashOf(token));
  }

  /**
   * Sets the new password of every login of the address its owner proved (the approval's, and those
   * joined by an e-mailed invite: the link proves the address, which is what each of them is; a login
   * made through a link shown to someone else keeps its own). The link is claimed first (of many
   * requests on one link only the claimant's password is hashed, in the queue logins use); under the
   * address's lock (as a password change takes it) it is used with every other open link of the
   * address; all of the logins' sessions end; audited in each merchant's log. False when the link
   * cannot be used.
   */
  async complete(token: string, password: string, clientAddress: string | null): Promise<boolean> {
    const claim = await this.resets.claim(tokenHashOf(token), RESET_CLAIM_SECONDS);
    if (!claim) return false;
    try {
      const passwordHash = await this.passwordHashes.run(clientAddress ?? 'unknown', () => hashPassword(password));
      return await this.audit.audited(
        () => null, // one entry per login, written below
        async (sql) => {
          const email = await this.resets.claimedAddress(sql, claim);
          if (email === null) return false;
          await lockAddress(sql, email);
          const logins = await this.members.provenOfAddress(sql, email);
          if (logins.length === 0 || (await this.resets.use(sql, claim)) === null) return false;
          for (const member of logins) {
            await this.members.setPasswordHash(sql, member.merchantId, member.id, passwordHash);
            await this.sessions.deleteAllOf(sql, member.id);
            await this.audit.record(sql, {
              actor: email,
              clientAddress,
              merchantId: member.merchantId,
              action: 'member.password_reset',
              target: member.id,
            });
          }
          return true;
        },
      );
    } catch (error) {
      await this.resets.releaseClaim(claim);
      throw error;
    }
  }

  /** Sent beside the answer, never holding it: how long SMTP takes must not tell an address apart. */
  private emailLink(locale: Locale, to: string, link: string): void {
    this.mailer
      .send(passwordResetEmail(locale, { to, link, validMinutes: RESET_LINK_VALID_MINUTES }))
      .catch((error: unknown) => this.logger.warn(`a password reset e-mail was not sent: ${String(error)}`));
  }
}
