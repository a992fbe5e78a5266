import type { MerchantScope } from '@payhook/auth';
import type { Sql } from '@payhook/persistence';
import { refundOutcomeEvent, toNewRefundEvent, type EventWriter } from './event-writer';
import { REFUND_MOVES, movableFromSql } from './moves-table';
import { PAYMENT_COLUMNS, qualified, toPaymentRecord, type PaymentRecord, type PaymentRow } from './payment-record';
import { REFUND_COLUMNS, toRefundRecord, type RefundRecord, type RefundRow } from './refund-record';
import { paymentRemainderSql } from './refundable-remainder';
import type { SettlementWriter } from './settlement-writer';
import { refundVatSql } from './tax-breakdown';

/** A refund's amount reserved on its payment (succeeded + pending refunds never exceed the payment). */
export interface RefundHold {
  payment: PaymentRecord;
  amount: number;
}

/** Why no amount was reserved: no such payment in the scope, not completed, or too little left. */
export type HoldRefusal = 'payment_not_found' | 'payment_not_completed' | 'amount_exceeded';

/** An amount to reserve on a payment of the scope for a refund. */
export interface RefundAsk {
  scope: MerchantScope;
  paymentId: string;
  amount: number;
}

/** A payment about to be refunded, read under its row lock: its order (never changes), state and remainder. */
export interface RefundablePayment {
  id: string;
  orderId: string;
  status: string;
  /** Its amount less the vouchers it redeemed and its succeeded and pending refunds. */
  remainder: number;
}

/**
 * Every money move of a refund (ADR 0014), live or test alike: a refund is held, inserted pending and
 * moved by REFUND_MOVES (a test refund succeeds in the transaction that made it; a live one when the
 * operator says the money was sent). The database decides: the reserve is a guarded UPDATE of
 * payments.refund_held_amount that takes the payment's row lock, so refunds racing each other queue on
 * it and never add up to more than the payment; a pending refund moves once, by a compare-and-set,
 * and only that move writes its event and settlement record. Each writer takes a batch (test refunds
 * that arrive together share a transaction, ADR 0015) of refunds of distinct payments. A refund account
 * is kept only while its refund is pending: the payer's bank details are not kept for nothing.
 */
export class RefundWrites {
  constructor(
    private readonly sql: Sql,
    private readonly events: EventWriter,
    private readonly settlements: SettlementWriter,
  ) {}

  /**
   * The payments of a batch of refunds, each looked for in its refund's scope only (one missing from
   * the map does not exist there), locked in id order until the transaction ends: two batches sharing
   * payments queue instead of deadlocking, and a remainder read here is the one the hold will see.
   */
  async lockRefundable(
    payments: readonly { paymentId: string; scope: MerchantScope }[],
  ): Promise<Map<string, RefundablePayment>> {
    const rows = await this.sql<{ id: string; order_id: string; status: string; remainder: string }>(
      `SELECT p.id, p.order_id, p.status, ${paymentRemainderSql('p.', 'p.id')} AS remainder
       FROM payments p
       JOIN unnest($1::text[], $2::text[], $3::boolean[]) AS wanted (id, merchant_id, livemode)
         ON wanted.id = p.id AND wanted.merchant_id = p.merchant_id AND wanted.livemode = p.livemode
       WHERE p.id = ANY ($1::text[])
       ORDER BY p.id FOR UPDATE OF p`,
      [
        payments.map(({ paymentId }) => paymentId),
        payments.map(({ scope }) => scope.merchantId),
        payments.map(({ scope }) => scope.livemode),
      ],
      'lock-refundable',
    );
    return new Map(
      rows.map((row) => [
        row.id,
        { id: row.id, orderId: row.order_id, status: row.status, remainder: Number(row.remainder) },
      ]),
    );
  }

  /**
   * Reserves `amount` (null: the whole remainder) of a completed payment of the scope for a refund.
   * The remainder is the payment's amount less the vouchers it redeemed (fixed once it completed:
   * voucher value is never paid out as cash) and less its succeeded and pending refunds.
   */
  async hold(scope: MerchantScope, paymentId: string, amount: number | null): Promise<RefundHold | HoldRefusal> {
    // The whole remainder is known only under the row lock: read it there, then reserve exactly it.
    if (amount === null) {
      const payment = (await this.lockRefundable([{ scope, paymentId }])).get(paymentId);
      if (!payment) return 'payment_not_found';
      if (payment.status !== 'completed') return 'payment_not_completed';
      if (payment.remainder <= 0) return 'amount_exceeded';
      amount = payment.remainder;
    }
    const [hold] = await this.holdAll([{ scope, paymentId, amount }]);
    return hold;
  }

  /** Reserves each amount on its payment (distinct payments), guarded by the remainder; a refusal where it does not fit. */
  async holdAll(asks: readonly RefundAsk[]): Promise<(RefundHold | HoldRefusal)[]> {
    if (asks.length === 0) return [];
    // An UPDATE … FROM changes a row once however many inputs match it: one ask per payment.
    if (new Set(asks.map(({ paymentId }) => paymentId)).size < asks.length)
      throw new Error('refunds of one payment are held one at a time');
    const rows = await this.sql<PaymentRow>(
      `UPDATE payments p SET refund_held_amount = p.refund_held_amount + i.amount
       FROM unnest($1::text[], $2::text[], $3::boolean[], $4::bigint[]) AS i (payment_id, merchant_id, livemode, amount)
       -- Read by primary key alone, whatever the planner guesses of the input.
       WHERE p.id = ANY ($1::text[])
         AND p.id = i.payment_id AND p.merchant_id = i.merchant_id AND p.livemode = i.livemode
         AND p.status = 'completed' AND i.amount <= ${paymentRemainderSql('p.', 'p.id')}
       RETURNING ${qualified(PAYMENT_COLUMNS, 'p')}`,
      [
        asks.map(({ paymentId }) => paymentId),
        asks.map(({ scope }) => scope.merchantId),
        asks.map(({ scope }) => scope.livemode),
        asks.map(({ amount }) => amount),
      ],
      'hold-refunds',
    );
    const held = new Map(rows.map((row) => [row.id, toPaymentRecord(row)]));
    const refused = asks.filter(({ paymentId }) => !held.has(paymentId));
    const why = refused.length > 0 ? await this.whyNotHeld(refused) : new Map<string, HoldRefusal>();
    return asks.map(({ paymentId, amount }) => {
      const payment = held.get(paymentId);
      return payment ? { payment, amount } : why.get(paymentId)!;
    });
  }

  /** Inserts new pending refunds, their amounts already held. */
  async insertPending(refunds: readonly RefundRecord[]): Promise<void> {
    const notPending = refunds.find((refund) => refund.status !== 'pending');
    if (notPending) throw new Error(`refund ${notPending.id} is ${notPending.status}: only pending is inserted`);
    const column = <K extends keyof RefundRecord>(key: K) => refunds.map((refund) => refund[key]);
    await this.sql(
      `INSERT INTO refunds (${REFUND_COLUMNS})
       SELECT r.id, r.payment_id, r.merchant_id, r.livemode, r.order_id, r.amount, r.currency, r.reason, 'pending',
              r.refund_account_sealed, NULL, NULL, r.created_at, NULL, NULL
       FROM unnest($1::text[], $2::text[], $3::text[], $4::boolean[], $5::text[], $6::bigint[], $7::text[], $8::text[],
                   $9::text[], $10::timestamptz[])
         AS r (id, payment_id, merchant_id, livemode, order_id, amount, currency, reason, refund_account_sealed,
               created_at)`,
      [
        column('id'),
        column('paymentId'),
        column('merchantId'),
        column('livemode'),
        column('orderId'),
        column('amount'),
        column('currency'),
        column('reason'),
        column('refundAccountSealed'),
        column('createdAt'),
      ],
      'insert-refunds',
    );
  }

  /**
   * The money was sent (by the operator, or at once for a test refund): pending → succeeded, its VAT
   * and supplied value fixed by the payment's running totals (refundVatSql), the amount counted as
   * refunded, with each refund.succeeded event and settlement record. The refunds
   * not (or no longer) pending are left out of the answer. The refund account has served its purpose:
   * it is forgotten with the move (as on a failure).
   */
  async succeed(moves: readonly { id: string; bankTransactionId: string | null }[]): Promise<RefundRecord[]> {
    if (moves.length === 0) return [];
    const rows = await this.sql<RefundRow & { refunded_before: string }>(
      `WITH split AS (${refundVatSql('$1::text[]')}), moved AS (
         UPDATE refunds r SET status = 'succeeded', succeeded_at = GREATEST(now(), r.created_at),
                              bank_transaction_id = i.bank_transaction_id, refund_account_sealed = NULL,
                              vat = split.vat, supplied_amount = r.amount - r.tax_free_amount - split.vat
         FROM unnest($1::text[], $2::text[]) AS i (id, bank_transaction_id), split
         WHERE r.id = ANY ($1::text[]) AND r.id = i.id AND split.id = r.id
           AND r.status IN (${movableFromSql(REFUND_MOVES, 'succeeded', 'operator')})
         RETURNING ${qualified(REFUND_COLUMNS, 'r')}
       ), counted AS (
         UPDATE payments p SET refunded_amount = p.refunded_amount + moved.amount
         FROM moved WHERE p.id = moved.payment_id
         RETURNING p.id AS payment_id, p.refunded_amount - moved.amount AS refunded_before
       )
       SELECT moved.*, counted.refunded_before FROM moved JOIN counted USING (payment_id)`,
      [moves.map(({ id }) => id), moves.map(({ bankTransactionId }) => bankTransactionId)],
      'succeed-refunds',
    );
    if (new Set(rows.map((row) => row.payment_id)).size < rows.length)
      throw new Error('refunds of one payment succeed one at a time: its running total counts each');
    const succeeded = rows.map((row) => ({ refund: toRefundRecord(row), refundedBefore: Number(row.refunded_before) }));
    await this.events.record(succeeded.map(({ refund }) => toNewRefundEvent(refund, refundOutcomeEvent(refund))));
    await this.settlements.recordRefunds(succeeded);
    return succeeded.map(({ refund }) => refund);
  }

  /** The money could not be sent: pending → failed, its amount refundable again, with refund.failed; the account is forgotten. */
  async fail(id: string, failureReason: string): Promise<RefundRecord | null> {
    const rows = await this.sql<RefundRow>(
      `WITH moved AS (
         UPDATE refunds SET status = 'failed', failed_at = GREATEST(now(), created_at), failure_reason = $2,
                            refund_account_sealed = NULL
         WHERE id = $1 AND status IN (${movableFromSql(REFUND_MOVES, 'failed', 'operator')})
         RETURNING ${REFUND_COLUMNS}
       ), released AS (
         UPDATE payments p SET refund_held_amount = p.refund_held_amount - moved.amount
         FROM moved WHERE p.id = moved.payment_id
         RETURNING 1
       )
       SELECT moved.* FROM moved, released`,
      [id, failureReason],
    );
    const [row] = rows;
    if (!row) return null;
    const refund = toRefundRecord(row);
    await this.events.record([toNewRefundEvent(refund, refundOutcomeEvent(refund))]);
    return refund;
  }

  private async whyNotHeld(asks: readonly RefundAsk[]): Promise<Map<string, HoldRefusal>> {
    const rows = await this.sql<{ id: string; status: string }>(
      `SELECT p.id, p.status FROM payments p
       JOIN unnest($1::text[], $2::text[], $3::boolean[]) AS wanted (id, merchant_id, livemode)
         ON wanted.id = p.id AND wanted.merchant_id = p.merchant_id AND wanted.livemode = p.livemode
       WHERE p.id = ANY ($1::text[])`,
      [
        asks.map(({ paymentId }) => paymentId),
        asks.map(({ scope }) => scope.merchantId),
        asks.map(({ scope }) => scope.livemode),
      ],
    );
    const status = new Map(rows.map((row) => [row.id, row.status]));
    return new Map(
      asks.map(({ paymentId }) => {
        const found = status.get(paymentId);
        const why: HoldRefusal =
          found === undefined
            ? 'payment_not_found'
            : found === 'completed'
              ? 'amount_exceeded'
              : 'payment_not_completed';
        return [paymentId, why];
      }),
    );
  }
}
