import type { ApiKeyMode, MerchantStatus } from '@payhook/contracts';

/** Who is calling: set on the request by ApiKeyGuard. */
export interface AuthContext {
  merchantId: string;
  keyId: string;
  mode: ApiKeyMode;
  livemode: boolean;
  merchantStatus: MerchantStatus;
}

/** What the guard needs from storage; the payments-api provides the implementation. */
export abstract class ApiKeyResolver {
  /** The active (not revoked) key with this hash and its merchant, or null. */
  abstract resolve(keyHash: string): Promise<AuthContext | null>;
}

/** Injection token of the operator's bearer token; undefined disables the operator API. */
export const ADMIN_TOKEN = Symbol('ADMIN_TOKEN');

/** Injection token of RATE_LIMIT_PER_SECOND (0 = off). */
export const RATE_LIMIT_PER_SECOND = Symbol('RATE_LIMIT_PER_SECOND');
