import { Injectable } from '@nestjs/common';
import { createHash, randomBytes } from 'node:crypto';
import { MerchantsService } from '../merchants/merchants.service';
import { hashPassword, verifyPassword } from '../merchants/password-hash';
import { ConsoleLoginFailuresRepository } from './console-login-failures.repository';
import { SESSION_TTL_HOURS, type ConsoleSession } from './console-session';
import { ConsoleSessionsRepository } from './console-sessions.repository';

export type LoginResult = { kind: 'signed_in'; token: string } | { kind: 'refused' } | { kind: 'locked'; until: Date };

const sessionIdOf = (token: string) => createHash('sha256').update(token).digest('hex');
const randomToken = () => randomBytes(32).toString('base64url');

@Injectable()
export class ConsoleAuthService {
  /** Checked when the email is unknown, so that the answer takes as long as a real check. */
  private dummyHash?: Promise<string>;

  constructor(
    private readonly merchants: MerchantsService,
    private readonly sessions: ConsoleSessionsRepository,
    private readonly failures: ConsoleLoginFailuresRepository,
  ) {}

  /**
   * The same answer for an unknown email and a wrong password, and the same lockout for both:
   * nothing here tells whether an email has a console login.
   */
  async login(email: string, password: string): Promise<LoginResult> {
    const normalized = email.trim().toLowerCase();
    // Only an address-shaped email reaches the database (no control characters, no NUL).
    if (!/^[^\s@\p{C}]+@[^\s@\p{C}]+$/u.test(normalized) || normalized.length > 254 || password === '') {
      return { kind: 'refused' };
    }
    const claim = await this.failures.claimAttempt(normalized);
    if (claim.kind === 'locked') return claim;
    const merchant = await this.merchants.findByConsoleEmail(normalized);
    const stored = merchant?.consolePasswordHash ?? (await this.unknownEmailHash());
    const matches = await verifyPassword(password, stored);
    if (!merchant?.consolePasswordHash || !matches) return { kind: 'refused' };

    await this.failures.clear(normalized);
    // Housekeeping rides on logins, which are rare: no timer needed.
    await Promise.all([this.sessions.purgeExpired(), this.failures.purgeOld()]);
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
