import { Inject, Injectable } from '@nestjs/common';
import type { CookieOptions, Request, Response } from 'express';
import { PaymentsApiEnv } from '../../../platform/config/payments-api.env';
import { readCookie } from '../../../platform/html/cookies';
import { SESSION_TTL_HOURS } from '../../../accounts/console-logins';
import { SESSION_COOKIE } from './console-session';

/**
 * The console's session cookie. Where payhook is served over https it is `__Host-payhook_console`
 * (Secure, path /, no Domain): no other host, a sibling subdomain included, can set or shadow it.
 * Over plain http (a local machine) it is `payhook_console` on /console.
 */
@Injectable()
export class ConsoleSessionCookie {
  readonly secure: boolean;
  private readonly name: string;
  private readonly options: CookieOptions;

  constructor(@Inject(PaymentsApiEnv) env: PaymentsApiEnv) {
    this.secure = env.BASE_URL.startsWith('https://') || env.PAY_URL.startsWith('https://');
    this.name = this.secure ? `__Host-${SESSION_COOKIE}` : SESSION_COOKIE;
    this.options = {
      httpOnly: true,
      sameSite: 'lax',
      secure: this.secure,
      path: this.secure ? '/' : '/console',
      maxAge: SESSION_TTL_HOURS * 3_600_000,
    };
  }

  /** The session token the browser sent, if any. */
  read(request: Request): string | undefined {
    return readCookie(request, this.name);
  }

  set(response: Response, token: string): void {
    response.cookie(this.name, token, this.options);
  }

  clear(response: Response): void {
    response.clearCookie(this.name, { ...this.options, maxAge: undefined });
  }
}
