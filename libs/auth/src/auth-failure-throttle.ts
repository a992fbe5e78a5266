import { PayhookError } from '@payhook/contracts';

/** Where a credential was tried: the operator token, or a console password. */
export type AuthScope = 'admin' | 'console';

/** 20 failures from one client address within 5 minutes, and that address waits (DESIGN.md §8). */
export const MAX_AUTH_FAILURES = 20;
export const AUTH_FAILURE_WINDOW_MINUTES = 5;

export type AuthAttempt = { kind: 'claimed'; id: string } | { kind: 'throttled'; until: Date };

/**
 * Counts failed authentication per client address. An attempt is claimed (written as a failure)
 * before the credential is checked and released when it was right, so parallel guesses cannot slip
 * past the count; failures never lock an account against its right password from elsewhere.
 */
export interface AuthFailureThrottle {
  claim(scope: AuthScope, client: string): Promise<AuthAttempt>;
  release(attempt: { id: string }): Promise<void>;
}

export const AUTH_FAILURE_THROTTLE = Symbol('AUTH_FAILURE_THROTTLE');

/** 429 rate_limited with Retry-After until the address's window has passed. */
export function throttledError(until: Date, what: string): PayhookError {
  const seconds = Math.max(1, Math.ceil((until.getTime() - Date.now()) / 1000));
  return new PayhookError(
    'rate_limited',
    `Too many failed ${what} from this address; try again in ${seconds} s.`,
    undefined,
    {
      'Retry-After': String(seconds),
    },
  );
}
