import type { MerchantScope } from '@payhook/auth';
import type { ConsoleMerchant } from '../../../accounts/console-logins';

export type { ConsoleMember, ConsoleMerchant, ConsoleSession } from '../../../accounts/console-logins';

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
