import { Inject, Injectable } from '@nestjs/common';
import { AUTH_FAILURE_THROTTLE, type AuthFailureThrottle } from '@payhook/auth';
import { createHash, randomBytes } from 'node:crypto';
import { MerchantsService } from '../merchants/merchants.service';
import { hashPassword, verifyPassword } from '../merchants/password-hash';
import { SESSION_TTL_HOURS, type ConsoleSession } from './console-session';
import { ConsoleSessionsRepository } from './console-sessions.repository';
import { PasswordCheckQueue } from './password-check-queue';

export type LoginResult =
  { kind: 'signed_in'; token: string } | { kind: 'refused' } | { kind: 'throttled'; until: Date };

const sessionIdOf = (token: string) => createHash('sha256').update(token).digest('hex');
const randomToken = () => randomBytes(32).toString('base64url');

@Injectable()
export class ConsoleAuthService {
  /** Checked when the email is unknown, so that the answer takes as long as a real check. */
  private dummyHash?: Promise<string>;

  constructor(
    private readonly merchants: MerchantsService,
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
    const merchant = await this.merchants.findByConsoleEmail(normalized);
    const stored = merchant?.consolePasswordHash ?? (await this.unknownEmailHash());
    const matches = await this.checks
      .run(client, () => verifyPassword(password, stored))
      .catch(async (error: unknown) => {
        // Refused for load, not for the password: no failure to count.
        await this.failures.release(attempt);
        throw error;
      });
    if (!merchant?.consolePasswordHash || !matches) return { kind: 'refused' };

    await this.failures.release(attempt);
    // Housekeeping rides on logins, which are rare: no timer needed.
    await this.sessions.purgeExpired();
    const token = randomToken();
    await this.sessions.insert({
      id: sessionIdOf(token),
      merchantId: merchant.id,
      csrfToken: randomToken(),
      ttlHours: SESSION_TTL_HOURS,
    });
    return { kind: 'signed_in', token };
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
