import type { MerchantStatus } from '@payhook/contracts';
import type { MerchantScope } from '@payhook/auth';
import type { MemberRole } from '../../../accounts/team/member-role';

/** The cookie holds only the random token; the database keeps its SHA-256 as the session id. */
export const SESSION_COOKIE = 'payhook_console';
/** Signed double-submit cookie of the login form, the one form used before there is a session (html/csrf-tokens.ts). */
export const LOGIN_CSRF_COOKIE = 'payhook_console_login';
export const SESSION_TTL_HOURS = 12;

export interface ConsoleMerchant {
  id: string;
  name: string;
  status: MerchantStatus;
  timeZone: string;
}

/** Who is signed in: a member of the merchant's team, with the role every route checks. */
export interface ConsoleMember {
  id: string;
  email: string;
  role: MemberRole;
  twoStep: boolean;
}

/** A signed-in console user: one member of one merchant, and the CSRF token every form of the session carries. */
export interface ConsoleSession {
  id: string;
  csrfToken: string;
  merchant: ConsoleMerchant;
  member: ConsoleMember;
  /** False until a member with two-step login has given its code: such a session opens no page yet. */
  verified: boolean;
}

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
