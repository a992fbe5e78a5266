import type { CookieOptions, Request, Response } from 'express';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { readCookie } from './cookies';

/** How long a served form stays good; a page left open longer is opened again. */
export const CSRF_TOKEN_TTL_SECONDS = 12 * 3_600;

const BROWSER_VALUE = /^[A-Za-z0-9_-]{32}$/;
const TOKEN = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/;

/**
 * Signed double-submit CSRF tokens for the forms used without a session (the payment screen, the
 * console login). The cookie holds a random value of the browser's; the form carries
 * `<expiry>.<HMAC(key, page, browser value, expiry)>`, which only the server can make. So a
 * client (or a cookie planted from a sibling host) that puts the same value in both places is
 * refused, and a token is good for one page and a limited time only. On an https site the cookie is
 * `__Host-` prefixed: Secure, path /, no Domain, so no other host can set or shadow it.
 */
export class CsrfTokens {
  private readonly key: Buffer;
  private readonly cookieName: string;
  private readonly cookieOptions: CookieOptions;

  constructor(
    secretsKey: Buffer,
    cookie: { name: string; path: string; secure: boolean },
    private readonly now: () => number = Date.now,
  ) {
    // A key of its own, derived, so a token reveals nothing about what SECRETS_KEY guards elsewhere.
    this.key = createHmac('sha256', secretsKey).update('payhook csrf tokens').digest();
    this.cookieName = cookie.secure ? `__Host-${cookie.name}` : cookie.name;
    this.cookieOptions = {
      httpOnly: true,
      sameSite: 'strict',
      secure: cookie.secure,
      path: cookie.secure ? '/' : cookie.path,
    };
  }

  /** The token for a form of `page` (the browser's cookie is set, or kept, alongside). */
  issue(request: Request, response: Response, page: string): string {
    const browser = this.browserValue(request) ?? randomBytes(24).toString('base64url');
    response.cookie(this.cookieName, browser, this.cookieOptions);
    const expires = Math.floor(this.now() / 1000) + CSRF_TOKEN_TTL_SECONDS;
    return `${expires}.${this.mac(page, browser, expires)}`;
  }

  /** True only for a token this server issued to this browser for `page`, not yet expired. */
  verify(request: Request, token: string | undefined, page: string): boolean {
    const browser = this.browserValue(request);
    const parts = token === undefined ? null : TOKEN.exec(token);
    if (!browser || !parts) return false;
    const expires = Number(parts[1]);
    if (expires * 1000 <= this.now()) return false;
    return timingSafeEqual(Buffer.from(parts[2]), Buffer.from(this.mac(page, browser, expires)));
  }

  private browserValue(request: Request): string | undefined {
    const value = readCookie(request, this.cookieName);
    return value !== undefined && BROWSER_VALUE.test(value) ? value : undefined;
  }

  private mac(page: string, browser: string, expires: number): string {
    return createHmac('sha256', this.key).update(`${page}\n${browser}\n${expires}`).digest('base64url');
  }
}
