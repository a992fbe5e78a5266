import { Inject, Injectable, Logger } from '@nestjs/common';
import { AUTH_FAILURE_LIMITS, AUTH_FAILURE_THROTTLE, type AuthFailureThrottle } from '@payhook/auth';
import { createHash, randomBytes } from 'node:crypto';
import { DEFAULT_LOCALE } from '../../platform/i18n/locale';
import { Mailer } from '../../platform/mail/mailer';
import { hashPassword, verifyPassword } from '../merchants';
import { MembersRepository, PasswordHashQueue, TwoStepService } from '../team';
import { SESSION_TTL_HOURS, type ConsoleMember, type ConsoleSession } from './console-session';
import { ConsoleLoginChoicesRepository } from './console-login-choices.repository';
import { ConsoleSessionsRepository } from './console-sessions.repository';
import { wrongCodesEmail } from './login-emails';

/**
 * `second_step`: the password was right and the session exists, but opens nothing until the code is
 * given. `choose`: the password opened the address's logins at several merchants; `token` names this
 * choice (for CHOICE_VALID_MINUTES), `logins` which ones.
 */
export type LoginResult =
  | { kind: 'signed_in'; token: string }
  | { kind: 'second_step'; token: string }
  | { kind: 'choose'; token: string; logins: { memberId: string; merchantName: string }[] }
  | { kind: 'refused' }
  | { kind: 'throttled'; until: Date };

/** How long the choice of merchant after a password that opened several logins stays open. */
export const CHOICE_VALID_MINUTES = 5;

/**
 * `signed_in` comes with a fresh token (the one the password gave is dead). `ended`: this session had
 * its last code; it is gone, and the login starts again from the password. `gone`: the session was
 * verified or ended meanwhile (a form sent twice). `throttled`: too many wrong codes from the
 * client's network, or for the member from anywhere.
 */
export type SecondStepResult =
  | { kind: 'signed_in'; token: string }
  | { kind: 'refused' }
  | { kind: 'ended' }
  | { kind: 'gone' }
  | SecondStepThrottled;
export type SecondStepThrottled = { kind: 'throttled'; until: Date; by: 'network' | 'member' };

/**
 * Codes one session may have checked: with the per-address and per-member throttles, a password
 * alone lets an attacker try a handful of the million codes, then start over from the password.
 */
export const MAX_SECOND_STEP_ATTEMPTS = 5;

/**
 * Which of `hashes` the password matches, one after the other (one job of the bounded queue); a hash
 * that repeats (logins set by one reset) is checked once.
 */
async function matchingHashes(password: string, hashes: string[]): Promise<boolean[]> {
  const checked = new Map<string, boolean>();
  for (const hash of hashes) if (!checked.has(hash)) checked.set(hash, await verifyPassword(password, hash));
  return hashes.map((hash) => checked.get(hash)!);
}

const sessionIdOf = (token: string) => createHash('sha256').update(token).digest('hex');
const randomToken = () => randomBytes(32).toString('base64url');

@Injectable()
export class ConsoleAuthService {
  private readonly logger = new Logger(ConsoleAuthService.name);
  /** Checked when the email is unknown, so that the answer takes as long as a real check. */
  private dummyHash?: Promise<string>;

  constructor(
    private readonly members: MembersRepository,
    private readonly twoStep: TwoStepService,
    private readonly sessions: ConsoleSessionsRepository,
    private readonly choices: ConsoleLoginChoicesRepository,
    @Inject(AUTH_FAILURE_THROTTLE) private readonly failures: AuthFailureThrottle,
    private readonly checks: PasswordHashQueue,
    private readonly mailer: Mailer,
  ) {}

  /**
   * The same answer for an unknown email and a wrong password, and the same work for an unknown
   * email as for an address with one login (a stand-in hash, in the same queue), so nothing here
   * tells whether an email has a console login. An address may have logins at several merchants
   * (at most MAX_LOGINS_PER_ADDRESS), each with its own password: the password is checked against
   * each distinct hash, so such an address's login takes longer (that much it tells, not which
   * merchants), and when it opens more than one the person chooses. Failures
   * are counted per client (`client`; an IPv6 /64 is one), never per email, so nobody can lock a
   * merchant out of its console from elsewhere. Throws 429 rate_limited when the password check
   * queue is full or this client already has a check in it.
   */
  async login(email: string, password: string, client: string): Promise<LoginResult> {
    const normalized = email.trim().toLowerCase();
    // Only an address-shaped email reaches the database (no control characters, no NUL).
    if (!/^[^\s@\p{C}]+@[^\s@\p{C}]+$/u.test(normalized) || normalized.length > 254 || password === '') {
      return { kind: 'refused' };
    }
    const attempt = await this.failures.claim('console', client);
    if (attempt.kind === 'throttled') return attempt;
    const logins = await this.members.findLogins(normalized);
    const hashes = logins.length > 0 ? logins.map((login) => login.passwordHash) : [await this.unknownEmailHash()];
    // A client with no failure in the window (this attempt is the only one counted) goes ahead.
    const matches = await this.checks
      .run(client, () => matchingHashes(password, hashes), { clean: attempt.failures === 1 })
      .catch(async (error: unknown) => {
        // Refused for load, not for the password: no failure to count.
        await this.failures.release(attempt);
        throw error;
      });
    const opened = logins.filter((_, index) => matches[index]);
    if (opened.length === 0) return { kind: 'refused' };

    await this.failures.release(attempt);
    // Housekeeping rides on logins, which are rare: no timer needed.
    await Promise.all([this.sessions.purgeExpired(), this.choices.purgeExpired()]);
    if (opened.length === 1) return this.open(opened[0]);
    const token = randomToken();
    await this.choices.insert(
      sessionIdOf(token),
      opened.map((login) => ({ memberId: login.id, passwordHash: login.passwordHash })),
      CHOICE_VALID_MINUTES,
    );
    return {
      kind: 'choose',
      token,
      logins: opened.map((login) => ({ memberId: login.id, merchantName: login.merchantName })),
    };
  }

  /**
   * The merchant chosen after a password that opened several logins: its session, as a login of
   * that one alone would have made it. `refused` when the choice was used, expired or did not offer
   * this member (every choice works once).
   */
  async choose(choiceToken: string, memberId: string): Promise<LoginResult> {
    // Only a token's and a member id's shape reaches the database.
    if (!/^[A-Za-z0-9_-]{43}$/.test(choiceToken) || !/^mem_[A-Za-z0-9]{1,40}$/.test(memberId))
      return { kind: 'refused' };
    const chosen = await this.choices.take(sessionIdOf(choiceToken), memberId);
    if (!chosen) return { kind: 'refused' };
    return this.open({
      id: chosen.memberId,
      merchantId: chosen.merchantId,
      passwordHash: chosen.passwordHash,
      twoStep: chosen.twoStep,
    });
  }

  /** A session of the member whose password was right, owing the second step if two-step login is on. */
  private async open(member: {
    id: string;
    merchantId: string;
    passwordHash: string;
    twoStep: boolean;
  }): Promise<LoginResult> {
    const token = randomToken();
    const verified = !member.twoStep;
    const made = await this.sessions.insert({
      id: sessionIdOf(token),
      merchantId: member.merchantId,
      memberId: member.id,
      csrfToken: randomToken(),
      ttlHours: SESSION_TTL_HOURS,
      verified,
      passwordHash: member.passwordHash,
    });
    // The password changed while it was checked: the old one opens nothing.
    if (!made) return { kind: 'refused' };
    return verified ? { kind: 'signed_in', token } : { kind: 'second_step', token };
  }

  /**
   * The code of a session's second step (TOTP or a recovery code). The throttles are claimed first
   * (a throttled answer uses none of the session's codes), then the session's attempt, before the
   * code is checked: codes sent together are never all checked. Wrong codes count toward the
   * client's throttle as wrong passwords do, and toward the member's.
   */
  async secondStep(session: ConsoleSession, code: string, client: string): Promise<SecondStepResult> {
    const claims = await this.claimCodeThrottles(session, client);
    if (claims.kind === 'throttled') return claims;
    const attempt = await this.sessions.claimSecondStepAttempt(session.id);
    if (attempt === null || attempt > MAX_SECOND_STEP_ATTEMPTS) {
      await claims.release();
      if (attempt === null) return { kind: 'gone' };
      await this.sessions.delete(session.id);
      return { kind: 'ended' };
    }
    const passed = await this.checkCode(session, code, claims);
    if (!passed) {
      if (attempt < MAX_SECOND_STEP_ATTEMPTS) return { kind: 'refused' };
      await this.sessions.delete(session.id);
      return { kind: 'ended' };
    }
    // The token the password gave may have been seen on the way (it was a credential already): the
    // opened session goes on under a new one.
    const token = randomToken();
    if (!(await this.sessions.markVerified(session.id, sessionIdOf(token)))) return { kind: 'gone' };
    return { kind: 'signed_in', token };
  }

  /**
   * A code of the member's two-step login (TOTP or recovery), counted toward the client's throttle
   * and the member's when wrong (turning two-step login off asks for one).
   */
  async checkSecondStep(
    session: ConsoleSession,
    code: string,
    client: string,
  ): Promise<{ kind: 'passed' } | { kind: 'refused' } | SecondStepThrottled> {
    const claims = await this.claimCodeThrottles(session, client);
    if (claims.kind === 'throttled') return claims;
    return (await this.checkCode(session, code, claims)) ? { kind: 'passed' } : { kind: 'refused' };
  }

  /** A failure claimed for the client and one for the member, or which of them is throttled. */
  private async claimCodeThrottles(
    session: ConsoleSession,
    client: string,
  ): Promise<SecondStepThrottled | { kind: 'claimed'; memberFailures: number; release: () => Promise<void> }> {
    const byClient = await this.failures.claim('console', client);
    if (byClient.kind === 'throttled') return { ...byClient, by: 'network' };
    const byMember = await this.failures.claim('second-step', session.member.id);
    if (byMember.kind === 'throttled') {
      await this.failures.release(byClient);
      return { ...byMember, by: 'member' };
    }
    const release = async () => {
      await Promise.all([this.failures.release(byClient), this.failures.release(byMember)]);
    };
    return { kind: 'claimed', memberFailures: byMember.failures, release };
  }

  /**
   * Checks the code; a right one releases the claimed failures. The member's last allowed wrong
   * code e-mails the member: whoever gives them has the password.
   */
  private async checkCode(
    session: ConsoleSession,
    code: string,
    claims: { memberFailures: number; release: () => Promise<void> },
  ): Promise<boolean> {
    if (await this.twoStep.verifyLogin(session.member.id, code.slice(0, 40))) {
      await claims.release();
      return true;
    }
    if (claims.memberFailures === AUTH_FAILURE_LIMITS['second-step'].max) this.warnOfWrongCodes(session.member);
    return false;
  }

  /**
   * The signed-in member's password again, before a change a session left open must not make alone.
   * Counted toward the client's throttle and checked in the password queue, as a login is.
   */
  async checkPassword(
    session: ConsoleSession,
    password: string,
    client: string,
  ): Promise<{ kind: 'passed' } | { kind: 'refused' } | { kind: 'throttled'; until: Date }> {
    const attempt = await this.failures.claim('console', client);
    if (attempt.kind === 'throttled') return attempt;
    const login = await this.members.findLoginById(session.member.id);
    const matches =
      login !== null &&
      password !== '' &&
      (await this.checks
        .run(client, () => verifyPassword(password, login.passwordHash), { clean: attempt.failures === 1 })
        .catch(async (error: unknown) => {
          await this.failures.release(attempt);
          throw error;
        }));
    if (!matches) return { kind: 'refused' };
    await this.failures.release(attempt);
    return { kind: 'passed' };
  }

  /** After two-step login is turned on or off: every other session of the member ends. */
  signOutElsewhere(session: ConsoleSession): Promise<void> {
    return this.sessions.deleteOthersOf(session.member.id, session.id);
  }

  session(token: string): Promise<ConsoleSession | null> {
    return this.sessions.findActive(sessionIdOf(token));
  }

  async logout(session: ConsoleSession): Promise<void> {
    await this.sessions.delete(session.id);
  }

  /**
   * Sent beside the answer, never holding it: a slow SMTP server must not slow the login down. In the
   * member's language, Korean without a choice: the browser giving the codes may not be theirs.
   */
  private warnOfWrongCodes(member: ConsoleMember): void {
    const { max, windowMinutes } = AUTH_FAILURE_LIMITS['second-step'];
    this.mailer
      .send(wrongCodesEmail(member.locale ?? DEFAULT_LOCALE, { to: member.email, max, windowMinutes }))
      .catch((error: unknown) => this.logger.warn(`the wrong-codes e-mail was not sent: ${String(error)}`));
  }

  private unknownEmailHash(): Promise<string> {
    this.dummyHash ??= hashPassword(randomToken());
    return this.dummyHash;
  }
}
