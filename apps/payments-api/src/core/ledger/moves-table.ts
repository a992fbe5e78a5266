import type { CashReceiptStatus, EscrowStatus, PaymentStatus, RefundStatus } from '@payhook/contracts';

/**
 * A stateful money record's allowed moves, from → to, each with who may make it. Every compare-and-set
 * of the record's writer reads its `status IN (…)` from its table through `movableFromSql`, so a move
 * missing from the table cannot happen.
 */
export type MovesTable<Status extends string, Mover extends string> = Readonly<
  Record<Status, Partial<Record<Status, readonly Mover[]>>>
>;

/** The statuses `to` may be reached from by `mover`, as a SQL list of literals (constants only). */
export function movableFromSql<Status extends string, Mover extends string>(
  table: MovesTable<Status, Mover>,
  to: Status,
  mover: Mover,
): string {
  const from = (Object.keys(table) as Status[]).filter((status) => table[status][to]?.includes(mover));
  if (from.length === 0) throw new Error(`no allowed move into ${to} for ${mover}`);
  return from.map((status) => `'${status}'`).join(', ');
}

/** Where a payment can end up: every status but the one it is created in. */
export type PaymentOutcome = Exclude<PaymentStatus, 'pending'>;

/**
 * Who moves a payment. `review` is the operator resolving a review case: money that arrived for a
 * payment completes it even when the payment expired meanwhile. Everyone else moves pending payments.
 */
export type PaymentMover = 'anyone' | 'review';

export const PAYMENT_MOVES: MovesTable<PaymentStatus, PaymentMover> = {
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

/**
 * Who moves a refund: `operator`, who reports whether a live refund's money was sent. A test refund
 * has no money to send: the API makes the operator's success move for it in the transaction that
 * made it.
 */
export type RefundMover = 'operator';

export const REFUND_MOVES: MovesTable<RefundStatus, RefundMover> = {
  pending: { succeeded: ['operator'], failed: ['operator'] },
  succeeded: {},
  failed: {},
};

/**
 * Who moves a cash receipt: `operator`, who reports the tax office's answer to a live receipt. A test
 * receipt has no tax office to wait for: it is written issued or failed in the transaction that makes it.
 */
export type CashReceiptMover = 'operator';

export const CASH_RECEIPT_MOVES: MovesTable<CashReceiptStatus, CashReceiptMover> = {
  pending: { issued: ['operator'], failed: ['operator'] },
  issued: {},
  failed: {},
};

/**
 * Who moves an escrow: `merchant` registers the shipment (again while shipped: a correction of the
 * carrier and tracking number); `buyer` confirms or rejects on the buyer's page (a test key's helpers
 * act for the buyer); `clock`, the auto-confirm task, confirms a shipped escrow past its autoConfirmAt.
 */
export type EscrowMover = 'merchant' | 'buyer' | 'clock';

export const ESCROW_MOVES: MovesTable<EscrowStatus, EscrowMover> = {
  awaiting_shipment: { shipped: ['merchant'] },
  shipped: { shipped: ['merchant'], confirmed: ['buyer', 'clock'], rejected: ['buyer'] },
  confirmed: {},
  rejected: {},
};
