import type { PaymentStatus } from '@payhook/contracts';

/** Where a payment can end up: every status but the one it is created in. */
export type PaymentOutcome = Exclude<PaymentStatus, 'pending'>;

/**
 * Who moves a payment. `review` is the operator resolving a review case: money that arrived for a
 * payment completes it even when the payment expired meanwhile. Everyone else moves pending payments.
 */
export type Mover = 'anyone' | 'review';

/**
 * Every allowed state move, from → to, and who may make it. The compare-and-set statements of
 * payment-moves.ts read their `status IN (…)` from here, so a move missing here cannot happen.
 */
export const ALLOWED_MOVES: Readonly<Record<PaymentStatus, Partial<Record<PaymentOutcome, readonly Mover[]>>>> = {
  pending: {
    completed: ['anyone', 'review'],
    failed: ['anyone'],
    canceled: ['anyone'],
    expired: ['anyone'],
  },
  expired: { completed: ['review'] },
  completed: {},
  failed: {},
  canceled: {},
};

/** The stored statuses `to` may be reached from by `mover`, as a SQL list of literals (constants only). */
export function movableFromSql(to: PaymentOutcome, mover: Mover): string {
  const from = (Object.keys(ALLOWED_MOVES) as PaymentStatus[]).filter((status) =>
    ALLOWED_MOVES[status][to]?.includes(mover),
  );
  if (from.length === 0) throw new Error(`no allowed move into ${to} for ${mover}`);
  return from.map((status) => `'${status}'`).join(', ');
}
