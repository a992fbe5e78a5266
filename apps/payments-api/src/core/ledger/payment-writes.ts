import type { MerchantScope } from '@payhook/auth';
import { together, type Sql } from '@payhook/persistence';
import { amountDue, heldVoucherValue } from './amount-due';
import { paymentOutcomeEvent, toNewEvent, type EventWriter } from './event-writer';
import { PAYMENT_MOVES, movableFromSql, type PaymentOutcome } from './moves-table';
import { PAYMENT_COLUMNS, toPaymentRecord, type PaymentRecord, type PaymentRow } from './payment-record';
import type { PaymentSettlementTerms, SettlementWriter } from './settlement-writer';
import type { VoucherWrites } from './voucher-writes';
import type { CashReceiptWrites } from './cash-receipt-writes';

/**
 * Every move of a payment's state. Each is a compare-and-set from the statuses PAYMENT_MOVES names,
 * so the database decides races: exactly one move wins, and it alone writes its event (with the
 * event's outbox row) and, for a completion, its settlement record, all in the caller's transaction.
 */
export class PaymentWrites {
  constructor(
    private readonly sql: Sql,
    private readonly events: EventWriter,
    private readonly settlements: SettlementWriter,
    private readonly vouchers: VoucherWrites,
    private readonly cashReceipts: CashReceiptWrites,
  ) {}

  /**
   * Any merchant's payment, locked until the transaction ends (deposits, vouchers, reviews). `overdue`
   * reads the clock, not the transaction's start, so a payment that expired meanwhile is not taken as payable.
   */
  async lockForUpdate(id: string): Promise<(PaymentRecord & { overdue: boolean }) | null> {
    const rows = await this.sql<PaymentRow & { overdue: boolean }>(
      `SELECT ${PAYMENT_COLUMNS}, expires_at <= clock_timestamp() AS overdue FROM payments WHERE id = $1 FOR UPDATE`,
      [id],
    );
    return rows[0] ? { ...toPaymentRecord(rows[0]), overdue: rows[0].overdue } : null;
  }

  /** Value of the vouchers held for (or redeemed by) a payment. */
  heldVoucherValue(paymentId: string): Promise<number> {
    return heldVoucherValue(this.sql, paymentId);
  }

  /** What is still due on a payment: its amount less the vouchers it holds. */
  amountDue(payment: PaymentRecord): Promise<number> {
    return amountDue(this.sql, payment);
  }

  /**
   * A move out of pending. Only an expiry may move a payment whose expiresAt has passed. Null when
   * the payment is not (or no longer) pending. `scope` null: the operator, who acts on any merchant's payment.
   */
  async move(scope: MerchantScope | null, id: string, to: PaymentOutcome): Promise<PaymentRecord | null> {
    const params: unknown[] = [id, to];
    const scoped = scope ? `AND merchant_id = $3 AND livemode = $4` : '';
    if (scope) params.push(scope.merchantId, scope.livemode);
    // The database clock decides expiry here as in every read and in the sweeper.
    const moved = this.sql<PaymentRow>(
      `UPDATE payments
       SET status = $2, completed_at = CASE WHEN $2 = 'completed' THEN now() END, updated_at = now()
       WHERE id = $1 ${scoped} AND status IN (${movableFromSql(PAYMENT_MOVES, to, 'anyone')}) AND ($2 = 'expired' OR expires_at > now())
       RETURNING ${PAYMENT_COLUMNS}`,
      params,
      // Named per text (the move and whether it is scoped): prepared once per connection.
      `move-payment-${to}${scope ? '' : '-any-merchant'}`,
    );
    return this.recordMove(moved, to, id);
  }

  /**
   * The operator's completion through the review queue: money arrived for a payment that is pending
   * or has expired meanwhile, whatever expiresAt says. Sends the normal payment.completed event. Null
   * when the payment is in another state; a unique violation when its order has another active payment.
   */
  async completeAfterReview(id: string): Promise<PaymentRecord | null> {
    const moved = this.sql<PaymentRow>(
      `UPDATE payments SET status = 'completed', completed_at = now(), updated_at = now()
       WHERE id = $1 AND status IN (${movableFromSql(PAYMENT_MOVES, 'completed', 'review')})
       RETURNING ${PAYMENT_COLUMNS}`,
      [id],
    );
    return this.recordMove(moved, 'completed', id);
  }

  /**
   * What follows the move of payment `id` whose statement was just sent (`moved`, its answer not awaited):
   * a completion's settlement terms are read in the same round trip, and its outcomes written in the next.
   */
  private async recordMove(
    moved: Promise<PaymentRow[]>,
    outcome: PaymentOutcome,
    id: string,
  ): Promise<PaymentRecord | null> {
    const [rows, terms] = await together([
      moved,
      outcome === 'completed' ? this.settlements.completionTerms(id) : undefined,
    ]);
    const payment = rows[0] ? toPaymentRecord(rows[0]) : null;
    if (payment) await this.recordOutcomes([{ payment, outcome, terms }]);
    return payment;
  }

  /** An overdue pending payment becomes expired (with its event): a racing completion and expiry cannot both win. */
  async expireIfOverdue(id: string): Promise<PaymentRecord | null> {
    const rows = await this.sql<PaymentRow>(
      `UPDATE payments SET status = 'expired', updated_at = now()
       WHERE id = $1 AND status IN (${movableFromSql(PAYMENT_MOVES, 'expired', 'anyone')}) AND expires_at <= now()
       RETURNING ${PAYMENT_COLUMNS}`,
      [id],
    );
    const payment = rows[0] ? toPaymentRecord(rows[0]) : null;
    if (payment) await this.recordOutcomes([{ payment, outcome: 'expired' }]);
    return payment;
  }

  /**
   * The sweeper's batch: overdue pending payments become expired, each with its payment.expired
   * event, several instances sharing the work. `= ANY (ARRAY(...))` makes the batch a list of
   * primary-key lookups; `IN (...)` let the planner hash-join against every pending payment, a cost
   * that grows with the live ones.
   */
  async expireOverdue(batchSize: number): Promise<PaymentRecord[]> {
    const from = movableFromSql(PAYMENT_MOVES, 'expired', 'anyone');
    const rows = await this.sql<PaymentRow>(
      `UPDATE payments SET status = 'expired', updated_at = now()
       WHERE id = ANY (ARRAY(SELECT id FROM payments WHERE status IN (${from}) AND expires_at <= now()
                             ORDER BY expires_at LIMIT $1 FOR UPDATE SKIP LOCKED))
         AND status IN (${from})
       RETURNING ${PAYMENT_COLUMNS}`,
      [batchSize],
    );
    const expired = rows.map(toPaymentRecord);
    await this.recordOutcomes(expired.map((payment) => ({ payment, outcome: 'expired' as const })));
    return expired;
  }

  /**
   * What follows moves just made: the held vouchers of payments that left pending, the events, the
   * settlement record of each completion and its cash receipt (asked for, or self-issued). A completion is
   * announced at its completedAt; an expiry at expiresAt when the sweeper comes later (reads showed
   * it expired from then on); any other move now.
   */
  private async recordOutcomes(
    moves: { payment: PaymentRecord; outcome: PaymentOutcome; terms?: PaymentSettlementTerms }[],
  ): Promise<void> {
    const now = new Date();
    const instant = ({ payment, outcome }: (typeof moves)[number]): Date => {
      if (outcome === 'completed' && payment.completedAt) return payment.completedAt;
      if (outcome === 'expired' && payment.expiresAt < now) return payment.expiresAt;
      return now;
    };
    const completed = moves.filter(({ outcome }) => outcome === 'completed');
    // Each follows from the moves and none from another's answer: sent together (they run in this
    // order, as they ran one after the other), so a completion waits on one round trip for them all,
    // its settlement record with them on the terms read with the move.
    await together([
      this.vouchers.settleHolds(
        moves.map(({ payment, outcome }) => ({ paymentId: payment.id, completed: outcome === 'completed' })),
      ),
      this.events.record(
        moves.map((move) => toNewEvent(move.payment, paymentOutcomeEvent(move.payment, move.outcome, instant(move)))),
      ),
      ...completed.map((move) =>
        this.settlements.recordPayment({ ...move.payment, completedAt: instant(move) }, termsOf(move)),
      ),
      this.cashReceipts.issueAtCompletion(completed.map(({ payment }) => payment)),
    ]);
  }
}

/** A completion's terms, read with its move (recordMove): a completion without them is a bug, not a record without terms. */
function termsOf(move: { payment: PaymentRecord; terms?: PaymentSettlementTerms }): PaymentSettlementTerms {
  if (!move.terms) throw new Error(`payment ${move.payment.id} completed without its settlement terms read`);
  return move.terms;
}
