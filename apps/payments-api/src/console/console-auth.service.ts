import { Inject, Injectable } from '@nestjs/common';
import { AUTH_FAILURE_THROTTLE, type AuthFailureThrottle } from '@payhook/auth';
import { createHash, randomBytes } from 'node:crypto';
import { hashPassword, verifyPassword } from '../merchants/password-hash';
import { MembersRepository } from '../team/members.repository';
import { TwoStepService } from '../team/two-step.service';
import { SESSION_TTL_HOURS, type ConsoleSession } from './console-session';
import { ConsoleSessionsRepository } from './console-sessions.repository';
import { PasswordCheckQueue } from './password-check-queue';

/** `second_step`: the password was right and the session exists, but opens nothing until the code is given. */
export type LoginResult =
  | { kind: 'signed_in'; token: string }
  | { kind: 'second_step'; token: string }
  | { kind: 'refused' }
  | { kind: 'throttled'; until: Date };

/** `ended`: too many wrong codes in this session; it is gone, and the login starts again from the password. */
export type SecondStepResult =
  { kind: 'signed_in' } | { kind: 'refused' } | { kind: 'ended' } | { kind: 'throttled'; until: Date };

/**
 * Wrong codes one session may give before it ends: with the per-address throttle, a password alone
 * lets an attacker with many addresses try a handful of the million codes, then start over.
 */
export const MAX_SECOND_STEP_FAILURES = 5;

const sessionIdOf = (token: string) => createHash('sha256').update(token).digest('hex');
const randomToken = () => randomBytes(32).toString('base64url');

@Injectable()
export class ConsoleAuthService {
  /** Checked when the email is unknown, so that the answer takes as long as a real check. */
  private dummyHash?: Promise<string>;

  constructor(
    private readonly members: MembersRepository,
    private readonly twoStep: TwoStepService,
    private readonly sessions: ConsoleSessionsRepository,
    @Inject(AUTH_FAILURE_THROTTLE) private readonly failures: AuthFailureThrottle,
    private readonly checks: PasswordCheckQueue,
  ) {}

  /**
   * The same answer for an unknown email and a wrong password: nothing here tells whether an email
   * has a console login (an unknown email is checked against a stand-in hash: the same work, in the
   * same queue). Failures are counted per client (`client`; an IPv6 /64 is one), never per email, so
   * nobody can lock a merchant out of its console from elsewhere. Throws 429 rate_limited when the
   * password check queue is full or this client already has a check in it.
   */
  async login(email: string, password: string, client: string): Promise<LoginResult> {
    const normalized = email.trim().toLowerCase();
    // Only an address-shaped email reaches the database (no control characters, no NUL).
    if (!/^[^\s@\p{C}]+@[^\s@\p{C}]+$/u.test(normalized) || normalized.length > 254 || password === '') {
      return { kind: 'refused' };
    }
    const attempt = await this.failures.claim('console', client);
    if (attempt.kind === 'throttled') return attempt;
    const member = await this.members.findLogin(normalized);
    const stored = member?.passwordHash ?? (await this.unknownEmailHash());
    const matches = await this.checks
      .run(client, () => verifyPassword(password, stored))
      .catch(async (error: unknown) => {
        // Refused for load, not for the password: no failure to count.
        await this.failures.release(attempt);
        throw error;
      });
    if (!member || !matches) return { kind: 'refused' };

    await this.failures.release(attempt);
    // Housekeeping rides on logins, which are rare: no timer needed.
    await this.sessions.purgeExpired();
    const token = randomToken();
    const verified = member.totpSecret === null;
    await this.sessions.insert({
      id: sessionIdOf(token),
      merchantId: member.merchantId,
      memberId: member.id,
      csrfToken: randomToken(),
      ttlHours: SESSION_TTL_HOURS,
      verified,
    });
    return verified ? { kind: 'signed_in', token } : { kind: 'second_step', token };
  }

  /**
   * The code of a session's second step (TOTP or a recovery code). Wrong codes count toward the
   * client's throttle exactly as wrong passwords do (DESIGN §8).
   */
  async secondStep(session: ConsoleSession, code: string, client: string): Promise<SecondStepResult> {
    const result = await this.checkSecondStep(session, code, client);
    if (
      result.kind === 'refused' &&
      (await this.sessions.countSecondStepFailure(session.id)) >= MAX_SECOND_STEP_FAILURES
    ) {
      await this.sessions.delete(session.id);
      return { kind: 'ended' };
    }
    if (result.kind !== 'passed') return result;
    await this.sessions.markVerified(session.id);
    return { kind: 'signed_in' };
  }

  /** A code of the member's two-step login (TOTP or recovery), counted toward the client's throttle when wrong. */
  async checkSecondStep(
    session: ConsoleSession,
    code: string,
    client: string,
  ): Promise<{ kind: 'passed' } | { kind: 'refused' } | { kind: 'throttled'; until: Date }> {
    const attempt = await this.failures.claim('console', client);
    if (attempt.kind === 'throttled') return attempt;
    if (!(await this.twoStep.verifyLogin(session.member.id, code.slice(0, 40)))) return { kind: 'refused' };
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

  private unknownEmailHash(): Promise<string> {
    this.dummyHash ??= hashPassword(randomToken());
    return this.dummyHash;
  }
}
