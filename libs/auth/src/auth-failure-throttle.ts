import { PayhookError } from '@payhook/contracts';

/** Where a credential was tried: the operator token, a console password, or a member's two-step code. */
export type AuthScope = 'admin' | 'console' | 'second-step';

/**
 * Failures a scope allows within its window; one more and the next attempt waits until the oldest
 * leaves the window. Passwords and the operator token count per client address (an
 * IPv6 /64 is one), never per account, so nobody can lock a merchant out from elsewhere. Two-step
 * codes count per member too, whatever the address: only someone who has the password gets there,
 * and what cools down is that member's codes, never a password.
 */
export const AUTH_FAILURE_LIMITS: Record<AuthScope, { max: number; windowMinutes: number }> = {
  admin: { max: 20, windowMinutes: 5 },
  console: { max: 20, windowMinutes: 5 },
  'second-step': { max: 10, windowMinutes: 60 },
};

/** `failures`: in the window, this attempt included (it counts until released). */
export type AuthAttempt = { kind: 'claimed'; id: string; failures: number } | { kind: 'throttled'; until: Date };

/** How a credential checked under the subject's lock (AuthFailureThrottle.check) came out. */
export type CheckedAttempt = { kind: 'right' } | { kind: 'wrong' } | { kind: 'throttled'; until: Date };

/**
 * Counts failed authentication per client address, or per member for `second-step`. A slow check
 * (a password hash) is claimed (written as a failure) before it runs and released when it was right,
 * so parallel guesses cannot slip past the count. A check that takes no time (a token compared to a
 * digest) runs under the subject's lock instead, written only when wrong: parallel guesses still
 * queue one by one behind the count, and parallel right attempts never count as failures.
 */
export interface AuthFailureThrottle {
  /** `subject`: the client's address, or for `second-step` the member's id. */
  claim(scope: AuthScope, subject: string): Promise<AuthAttempt>;
  release(attempt: { id: string }): Promise<void>;
  /** `isRight` runs under the subject's lock, after the count: it must be quick and synchronous. */
  check(scope: AuthScope, subject: string, isRight: () => boolean): Promise<CheckedAttempt>;
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
