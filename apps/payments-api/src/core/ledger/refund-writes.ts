import type { MerchantScope } from '@payhook/auth';
import { jsonRecords, together, type Sql } from '@payhook/persistence';
import { newId } from '@payhook/contracts';
import { cancelReceiptsSql, CashReceiptWrites } from './cash-receipt-writes';
import { toCashReceiptRecord, type CashReceiptRow } from './cash-receipt-record';
import { refundOutcomeEvent, toNewCashReceiptEvent, toNewRefundEvent, type EventWriter } from './event-writer';
import { REFUND_MOVES, movableFromSql } from './moves-table';
import { PAYMENT_COLUMNS, qualified, toPaymentRecord, type PaymentRecord, type PaymentRow } from './payment-record';
import { REFUND_COLUMNS, toRefundRecord, type RefundRecord, type RefundRow } from './refund-record';
import { paymentRemainderSql } from './refundable-remainder';
import { refundSettlementTermsSql, type RefundSettlementTerms, type SettlementWriter } from './settlement-writer';
import { defaultRefundTaxFree, refundTaxFreeFits, refundVatSql, type NotYetRefunded } from './tax-breakdown';

/**
 * A refund's amount and tax-free part reserved on its payment (succeeded + pending refunds never
 * exceed the payment, nor its tax-free part, nor its taxable part).
 */
export interface RefundHold {
  payment: PaymentRecord;
  amount: number;
  taxFreeAmount: number;
}

/**
 * Why nothing was reserved: no such payment in the scope, not completed, too little left, or a
 * tax-free part that does not fit what is left (tax-breakdown.ts, refundTaxFreeFits).
 */
export type HoldRefusal = 'payment_not_found' | 'payment_not_completed' | 'amount_exceeded' | 'tax_free_amount_invalid';

/** What a refund asks of its payment; each part omitted is decided under the payment's row lock. */
export interface RefundWanted {
  /** Omitted: the whole remainder. */
  amount?: number;
  /** Omitted: its share of the tax-free part not yet refunded (defaultRefundTaxFree). */
  taxFreeAmount?: number;
}

/** An amount and its tax-free part to reserve on a payment of the scope for a refund, decided by decideRefund. */
export interface RefundAsk {
  scope: MerchantScope;
  paymentId: string;
  amount: number;
  taxFreeAmount: number;
}

/** A payment about to be refunded, read under its row lock: its order (never changes), state and remainder. */
export interface RefundablePayment {
  id: string;
  orderId: string;
  status: string;
  /** Its amount less the vouchers it redeemed and its succeeded and pending refunds. */
  remainder: number;
  /** Its amount and tax-free part less those of its succeeded and pending refunds: the tax-free rules' `left`. */
  notYetRefunded: NotYetRefunded;
}

/**
 * A refund's amount and tax-free part, decided from its payment as read under the row lock (so the
 * refund before it in the lock's queue is counted): the amount asked (or the whole remainder) if the
 * remainder allows it, and the tax-free part asked (or the amount's share of the tax-free part not
 * yet refunded) if it fits what is left. The hold that follows in the same transaction guards both.
 */
export function decideRefund(
  payment: RefundablePayment | undefined,
  wanted: RefundWanted,
): { amount: number; taxFreeAmount: number } | HoldRefusal {
  if (!payment) return 'payment_not_found';
  if (payment.status !== 'completed') return 'payment_not_completed';
  const amount = wanted.amount ?? payment.remainder;
  if (amount <= 0 || amount > payment.remainder) return 'amount_exceeded';
  const taxFreeAmount = wanted.taxFreeAmount ?? defaultRefundTaxFree(amount, payment.notYetRefunded);
  if (!refundTaxFreeFits(amount, taxFreeAmount, payment.notYetRefunded)) return 'tax_free_amount_invalid';
  return { amount, taxFreeAmount };
}

/**
 * Every money move of a refund (ADR 0014), live or test alike: a refund is held, inserted pending and
 * moved by REFUND_MOVES (a test refund succeeds in the transaction that made it; a live one when the
 * operator says the money was sent). The database decides: the payment's row is locked, the refund's
 * amount and tax-free part decided from it (decideRefund), and the reserve is a guarded UPDATE of
 * payments.refund_held_amount and refund_held_tax_free_amount under that lock, so refunds racing each
 * other queue on it and never add up to more than the payment, nor to more than its tax-free or its
 * taxable part; a pending refund moves once, by a compare-and-set,
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
    const rows = await this.sql<{
      id: string;
      order_id: string;
      status: string;
      remainder: string;
      amount_left: string;
      tax_free_left: string;
    }>(
      // Columns of the locked row only: a row that waited for the lock is read as the one before left it.
      `SELECT p.id, p.order_id, p.status, ${paymentRemainderSql('p.', 'p.id')} AS remainder,
              p.amount - p.refund_held_amount AS amount_left,
              p.tax_free_amount - p.refund_held_tax_free_amount AS tax_free_left
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
        {
          id: row.id,
          orderId: row.order_id,
          status: row.status,
          remainder: Number(row.remainder),
          notYetRefunded: { amount: Number(row.amount_left), taxFreeAmount: Number(row.tax_free_left) },
        },
      ]),
    );
  }

  /**
   * Reserves what a refund wants of a completed payment of the scope: its amount (omitted: the whole
   * remainder) and its tax-free part (omitted: its share of what is left, decideRefund). The
   * remainder is the payment's amount less the vouchers it redeemed (fixed once it completed: voucher
   * value is never paid out as cash) and less its succeeded and pending refunds.
   */
  async hold(scope: MerchantScope, paymentId: string, wanted: RefundWanted): Promise<RefundHold | HoldRefusal> {
    // The remainder and what is left tax-free are known only under the row lock: read them there,
    // decide, then reserve exactly that.
    const decided = decideRefund((await this.lockRefundable([{ scope, paymentId }])).get(paymentId), wanted);
    if (typeof decided === 'string') return decided;
    const [hold] = await this.holdAll([{ scope, paymentId, ...decided }]);
    return hold;
  }

  /**
   * Reserves each amount and tax-free part on its payment (distinct payments), as decideRefund
   * decided them under this transaction's lockRefundable, guarded again by the remainder and by what
   * is left tax-free and taxable. Under those locks the guard cannot refuse what decideRefund allowed:
   * a refusal is a broken invariant and throws (the transaction rolls back), so the caller may send
   * the statements that follow a hold (the insert, the move) with it, without waiting for its answer.
   */
  async holdAll(asks: readonly RefundAsk[]): Promise<RefundHold[]> {
    if (asks.length === 0) return [];
    // An UPDATE … FROM changes a row once however many inputs match it: one ask per payment.
    if (new Set(asks.map(({ paymentId }) => paymentId)).size < asks.length)
      throw new Error('refunds of one payment are held one at a time');
    const rows = await this.sql<PaymentRow>(
      `UPDATE payments p SET refund_held_amount = p.refund_held_amount + i.amount,
                             refund_held_tax_free_amount = p.refund_held_tax_free_amount + i.tax_free_amount
       FROM unnest($1::text[], $2::text[], $3::boolean[], $4::bigint[], $5::bigint[])
         AS i (payment_id, merchant_id, livemode, amount, tax_free_amount)
       -- Read by primary key alone, whatever the planner guesses of the input. The status is a test of
       -- the row found, never an index condition: payments_one_active_per_order holds every completed
       -- payment, and ANDing its bitmap with the ids' read ~300 pages a batch.
       WHERE p.id = ANY ($1::text[])
         AND p.id = i.payment_id AND p.merchant_id = i.merchant_id AND p.livemode = i.livemode
         AND (p.status = 'completed') IS TRUE AND i.amount <= ${paymentRemainderSql('p.', 'p.id')}
         -- What is left tax-free and taxable, as decideRefund checked it (payments_refund_tax_free_check backs it;
         -- refunds_tax_free_check holds the part within the refund's amount when the refund is inserted). No
         -- condition on the input alone here: it lowered the planner's guess of the input to one row, and the
         -- guess made it look the payment up by (merchant, mode, status) and scan for the id, a refund 4 ms.
         AND i.tax_free_amount <= p.tax_free_amount - p.refund_held_tax_free_amount
         AND i.amount - i.tax_free_amount
             <= (p.amount - p.tax_free_amount) - (p.refund_held_amount - p.refund_held_tax_free_amount)
       RETURNING ${qualified(PAYMENT_COLUMNS, 'p')}`,
      [
        asks.map(({ paymentId }) => paymentId),
        asks.map(({ scope }) => scope.merchantId),
        asks.map(({ scope }) => scope.livemode),
        asks.map(({ amount }) => amount),
        asks.map(({ taxFreeAmount }) => taxFreeAmount),
      ],
      'hold-refunds',
    );
    const held = new Map(rows.map((row) => [row.id, toPaymentRecord(row)]));
    return asks.map(({ paymentId, amount, taxFreeAmount }) => {
      const payment = held.get(paymentId);
      if (!payment)
        throw new Error(
          `the guarded hold refused payment ${paymentId}'s refund, which decideRefund allowed under its lock`,
        );
      return { payment, amount, taxFreeAmount };
    });
  }

  /**
   * Inserts new pending refunds, their amounts and tax-free parts already held, each with its
   * metadata in the same row (no statement of its own).
   */
  async insertPending(refunds: readonly RefundRecord[]): Promise<void> {
    const notPending = refunds.find((refund) => refund.status !== 'pending');
    if (notPending) throw new Error(`refund ${notPending.id} is ${notPending.status}: only pending is inserted`);
    await this.sql(
      `INSERT INTO refunds (${REFUND_COLUMNS})
       SELECT r.id, r."paymentId", r."merchantId", r.livemode, r."orderId", r.amount, r.currency, r.reason, 'pending',
              r."refundAccountSealed", NULL, NULL, r."createdAt", NULL, NULL, r."taxFreeAmount", NULL, NULL, r.metadata
       FROM json_to_recordset($1::json)
         AS r (id text, "paymentId" text, "merchantId" text, livemode boolean, "orderId" text, amount bigint,
               currency text, reason text, "refundAccountSealed" text, "createdAt" timestamptz, "taxFreeAmount" bigint,
               metadata jsonb)`,
      [jsonRecords(refunds)],
      'insert-refunds',
    );
  }

  /**
   * The money was sent (by the operator, or at once for a test refund): pending → succeeded, its VAT
   * and supplied value fixed by the payment's running totals (refundVatSql), the amount counted as
   * refunded, with each refund.succeeded event and settlement record, and in the same statement the
   * cancel receipt of a refund whose payment has a cash receipt (cancelReceiptsSql) and the terms of
   * its settlement record (refundSettlementTermsSql). The refunds not (or no longer) pending are left
   * out of the answer. The refund account has served its purpose: it is forgotten with the move (as
   * on a failure).
   *
   * The running totals are a sum over the payment's refunds that succeeded before, read in the
   * statement's snapshot: the refunds' payments are locked first (lockPaymentsOf), so that the
   * statement starts after any other refund of the payment that succeeded before it has committed,
   * and none can succeed beside it. `paymentsLocked`: the caller's transaction holds those locks
   * already (the test refund batch, from lockRefundable), and the lock is not taken again.
   *
   * `alongside`: the caller's statements that follow from the moved refunds alone (a test refund's key
   * claim and audit entry), sent with the events and settlement records, one round trip for all of
   * them; it rejects to fail the move (the transaction rolls back).
   */
  async succeed(
    moves: readonly { id: string; bankTransactionId: string | null }[],
    {
      paymentsLocked = false,
      alongside,
    }: { paymentsLocked?: boolean; alongside?: (succeeded: RefundRecord[]) => Promise<void> } = {},
  ): Promise<RefundRecord[]> {
    if (moves.length === 0) return [];
    if (!paymentsLocked) await this.lockPaymentsOf(moves.map(({ id }) => id));
    const rows = await this.sql<
      RefundRow & {
        refunded_before: string;
        cancel_receipt: CashReceiptRow | null;
        settlement_terms: RefundSettlementTerms | null;
      }
    >(
      // Each CTE that feeds a join is MATERIALIZED, computed once: inlined, the planner may read it again
      // for every row of the other side whenever it guesses the batch one row (n² reads for n refunds).
      `WITH split AS MATERIALIZED (${refundVatSql('$1::text[]')}), moved AS (
         UPDATE refunds r SET status = 'succeeded', succeeded_at = GREATEST(now(), r.created_at),
                              bank_transaction_id = i.bank_transaction_id, refund_account_sealed = NULL,
                              vat = split.vat, supplied_amount = r.amount - r.tax_free_amount - split.vat
         FROM unnest($1::text[], $2::text[]) AS i (id, bank_transaction_id), split
         WHERE r.id = ANY ($1::text[]) AND r.id = i.id AND split.id = r.id
           -- A test of the row found by id, never an index condition: refunds_queue_idx's pending range
           -- keeps an entry of every refund moved since the last vacuum, and walking it read ~70 pages a refund.
           AND (r.status IN (${movableFromSql(REFUND_MOVES, 'succeeded', 'operator')})) IS TRUE
         RETURNING ${qualified(REFUND_COLUMNS, 'r')}
       ), counted AS (
         UPDATE payments p SET refunded_amount = p.refunded_amount + moved.amount
         FROM moved WHERE p.id = moved.payment_id
         RETURNING p.id AS payment_id, p.refunded_amount - moved.amount AS refunded_before, p.escrow_status
       ), cancels AS (${cancelReceiptsSql('$1::text[]', '$3::text[]')}
       ), paired AS MATERIALIZED (
         SELECT moved.id, moved.merchant_id, moved.payment_id, moved.succeeded_at, counted.escrow_status
         FROM moved JOIN counted USING (payment_id)
       ), terms AS MATERIALIZED (
         SELECT paired.id AS refund_id, row_to_json(terms) AS settlement_terms
         FROM paired CROSS JOIN LATERAL (${refundSettlementTermsSql('paired', 'paired')}) terms
       )
       SELECT moved.*, counted.refunded_before, row_to_json(cancels) AS cancel_receipt, terms.settlement_terms
       FROM moved JOIN counted USING (payment_id) LEFT JOIN cancels ON cancels.refund_id = moved.id
       -- LEFT: a refund whose terms are not found still comes back (and fails below), so that its move
       -- is never committed without its event and record.
       LEFT JOIN terms ON terms.refund_id = moved.id`,
      [
        moves.map(({ id }) => id),
        moves.map(({ bankTransactionId }) => bankTransactionId),
        moves.map(() => newId('cashReceipt')),
      ],
      'succeed-refunds',
    );
    if (new Set(rows.map((row) => row.payment_id)).size < rows.length)
      throw new Error('refunds of one payment succeed one at a time: its running total counts each');
    const succeeded = rows.map(({ settlement_terms: terms, ...row }) => {
      if (!terms) throw new Error(`refund ${row.id} moved, but its merchant's settlement terms were not found`);
      return { refund: toRefundRecord(row), refundedBefore: Number(row.refunded_before), terms };
    });
    const cancelReceipts = rows.flatMap(({ cancel_receipt }) =>
      cancel_receipt ? [toCashReceiptRecord(cancel_receipt)] : [],
    );
    const refunds = succeeded.map(({ refund }) => refund);
    // Each follows from the move and none from another: sent together, one round trip for them all.
    await together([
      this.events.record([
        ...refunds.map((refund) => toNewRefundEvent(refund, refundOutcomeEvent(refund))),
        ...CashReceiptWrites.announced(cancelReceipts).map(toNewCashReceiptEvent),
      ]),
      this.settlements.recordRefunds(succeeded),
      alongside?.(refunds),
    ]);
    return refunds;
  }

  /**
   * The money could not be sent: pending → failed, its amount and its tax-free part refundable again,
   * with refund.failed; the account is forgotten.
   */
  async fail(id: string, failureReason: string): Promise<RefundRecord | null> {
    // The payment's row first, then the refund's, as every writer of refunds takes them: a failure and
    // a success of one refund never hold one lock each and wait on the other.
    await this.lockPaymentsOf([id]);
    const rows = await this.sql<RefundRow>(
      `WITH moved AS (
         UPDATE refunds SET status = 'failed', failed_at = GREATEST(now(), created_at), failure_reason = $2,
                            refund_account_sealed = NULL
         WHERE id = $1 AND status IN (${movableFromSql(REFUND_MOVES, 'failed', 'operator')})
         RETURNING ${REFUND_COLUMNS}
       ), released AS (
         UPDATE payments p SET refund_held_amount = p.refund_held_amount - moved.amount,
                               refund_held_tax_free_amount = p.refund_held_tax_free_amount - moved.tax_free_amount
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

  /**
   * Locks the payments of these refunds until the transaction ends, in id order as lockRefundable
   * does (two transactions sharing payments queue instead of deadlocking).
   */
  private async lockPaymentsOf(refundIds: readonly string[]): Promise<void> {
    await this.sql(
      `SELECT p.id FROM payments p
       WHERE p.id IN (SELECT r.payment_id FROM refunds r WHERE r.id = ANY ($1::text[]))
       ORDER BY p.id FOR UPDATE OF p`,
      [refundIds],
      'lock-payments-of-refunds',
    );
  }
}
