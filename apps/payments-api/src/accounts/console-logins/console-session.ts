import type { MerchantStatus } from '@payhook/contracts';
import type { Locale } from '../../platform/i18n/locale';
import type { MemberRole } from '../team';

/** How long a console session lasts. */
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
  /** Its chosen language; null: the browser's. */
  locale: Locale | null;
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
