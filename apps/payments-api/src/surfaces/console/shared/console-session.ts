import type { MerchantScope } from '@payhook/auth';
import type { Request } from 'express';
import type { ConsoleMerchant, ConsoleSession as SignedInSession } from '../../../accounts/console-logins';
import { negotiateLocale, type Locale } from '../../../platform/i18n/locale';

export type { ConsoleMember, ConsoleMerchant } from '../../../accounts/console-logins';

/** A signed-in member's session as its pages see it: with the language they are shown in. */
export type ConsoleSession = SignedInSession & { locale: Locale };

/**
 * The language of a console page: the member's own choice ("Your login"), else the browser's
 * (Accept-Language), else Korean. Pages without a session (sign-in, resets, invites) use the browser's.
 */
export function consoleLocale(request: Request, session?: SignedInSession): Locale {
  return session?.member.locale ?? negotiateLocale(request);
}

/** The cookie holds only the random token; the database keeps its SHA-256 as the session id. */
export const SESSION_COOKIE = 'payhook_console';
/** Signed double-submit cookie of the login form, the one form used before there is a session (html/csrf-tokens.ts). */
export const LOGIN_CSRF_COOKIE = 'payhook_console_login';

export type ConsoleMode = 'test' | 'live';

/** `?mode=live|test`; without one, test until the merchant is live, then live. */
export function modeOf(value: unknown, merchant: ConsoleMerchant): ConsoleMode {
  if (value === 'live' || value === 'test') return value;
  return merchant.status === 'live' ? 'live' : 'test';
}

/** Every console query goes through this: the session's merchant and the mode on screen. */
export function scopeOf(merchant: ConsoleMerchant, mode: ConsoleMode): MerchantScope {
  return { merchantId: merchant.id, livemode: mode === 'live' };
}
