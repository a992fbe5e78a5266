import type { MerchantScope } from '@payhook/auth';
import { DEFAULT_ENABLED_EVENTS, newId } from '@payhook/contracts';
import type { Sql } from '@payhook/persistence';
import type { PayoutRule } from './business-days';
import {
  endpointsOfEventSql,
  fanOutSql,
  initialDeliverySql,
  NO_ENDPOINT_REASON,
  refundOutcomeEvent,
  toNewRefundEvent,
  type EventWriter,
} from './event-writer';
import { IDEMPOTENCY_CLAIM_COLUMNS, IDEMPOTENCY_CLAIM_CONFLICT, type IdempotencyClaim } from './idempotency-claims';
import type { OutboxWriter } from './outbox-writer';
import { PAYMENT_COLUMNS, toPaymentRecord, type PaymentRecord, type PaymentRow } from './payment-record';
import { REFUND_MOVES, movableFromSql } from './moves-table';
import { paymentRemainderSql } from './refundable-remainder';
import { REFUND_COLUMNS, toRefundRecord, type RefundRecord, type RefundRow } from './refund-record';
import {
  PAYOUT_TERMS_SQL,
  payoutOf,
  refundSettlementSql,
  reportLegacyRefund,
  type PayoutTerms,
  type SettlementWriter,
} from './settlement-writer';

/** A refund's amount reserved on its payment (succeeded + pending refunds never exceed the payment). */
export interface RefundHold {
  payment: PaymentRecord;
  amount: number;
}

/** Why no amount was reserved: no such payment in the scope, not completed, or too little left. */
export type HoldRefusal = 'payment_not_found' | 'payment_not_completed' | 'amount_exceeded';

/**
 * A payment about to be refunded at once (test mode), as readForTestRefunds read it: its order (never
 * changes), state, what is left to refund, and the payout of a record on the sales date `sales` (the
 * merchant's delay and non-banking days as they were read).
 */
export interface RefundablePayment {
  id: string;
  orderId: string;
  status: string;
  /** Its amount less the vouchers it redeemed and its succeeded and pending refunds. */
  remainder: number;
  payout: { date: string; rule: PayoutRule };
}

/**
 * One test refund of a batch for succeedAllAtOnce: the refund (succeeded), its payout, its key's
 * claim, and who asked for it (its `refund.created` audit entry).
 */
export interface TestRefundWrite {
  refund: RefundRecord;
  sales: string;
  payout: { date: string; rule: PayoutRule };
  claim: IdempotencyClaim;
  by: { actor: string; clientAddress: string | null };
}

/** What became of a TestRefundWrite: `held` false when its amount did not fit, `claimed` false when its key was taken. */
export interface TestRefundWritten {
  held: boolean;
  claimed: boolean;
}

/**
 * Every money move of a refund (ADR 0014). The database decides: the reserve is a guarded
 * UPDATE of payments.refund_held_amount that takes the payment's row lock, so refunds racing each
 * other queue on it and never add up to more than the payment; a pending refund moves once, by a
 * compare-and-set from pending, and only that move writes its event and settlement record. A refund
 * account is kept only while its refund is pending: the payer's bank details are not kept for nothing.
 */
export class RefundWrites {
  constructor(
    private readonly sql: Sql,
    private readonly events: EventWriter,
    private readonly settlements: SettlementWriter,
    private readonly outbox: OutboxWriter,
  ) {}

  /**
   * Reads what the refunds of a batch of test refunds need of their payments: the order, state and
   * remainder of each, and the payout terms of a record on `sales`. Each payment is looked for in its
   * refund's scope only: one missing from the map does not exist there.
   *
   * `lock`: in id order, until the transaction ends (two batches sharing payments then queue instead of
   * deadlocking), for a batch written in a transaction. Without it, for a statement alone: what the
   * statement relies on does not change meanwhile (an order never does, and completed is final), but
   * the remainder may shrink, and the statement's guarded hold decides again.
   */
  async readForTestRefunds(
    payments: readonly { paymentId: string; scope: MerchantScope }[],
    sales: string,
    { lock }: { lock: boolean },
  ): Promise<Map<string, RefundablePayment>> {
    const rows = await this.sql<PayoutTerms & { id: string; order_id: string; status: string; remainder: string }>(
      `SELECT p.id, p.order_id, p.status,
              ${paymentRemainderSql('p.', 'p.id')} AS remainder, ${PAYOUT_TERMS_SQL}
       FROM payments p
       JOIN unnest($1::text[], $3::text[], $4::boolean[]) AS wanted (id, merchant_id, livemode)
         ON wanted.id = p.id AND wanted.merchant_id = p.merchant_id AND wanted.livemode = p.livemode
       JOIN merchants m ON m.id = p.merchant_id
       WHERE p.id = ANY ($1::text[])
       ${lock ? 'ORDER BY p.id FOR UPDATE OF p' : ''}`,
      [
        payments.map(({ paymentId }) => paymentId),
        sales,
        payments.map(({ scope }) => scope.merchantId),
        payments.map(({ scope }) => scope.livemode),
      ],
      lock ? 'lock-test-refunds' : 'read-test-refunds',
    );
    return new Map(
      rows.map((row) => [
        row.id,
        {
          id: row.id,
          orderId: row.order_id,
          status: row.status,
          remainder: Number(row.remainder),
          payout: payoutOf(sales, row),
        },
      ]),
    );
  }

  /**
   * Test refunds, succeeded at once, ONE statement for the whole batch (as creates share one, ADR
   * 0013): per refund, the guarded hold on its payment (refunded_amount counted too) returning R₀, the
   * refund row, refund.succeeded with a delivery and its outbox row per endpoint that takes it, the
   * settlement record with its amounts computed in SQL from R₀ at the fee rate of the payment's own
   * record (0 for a payment settled before records existed), the idempotency key claim and the
   * `refund.created` audit entry. Each write selects from the hold, so nothing is written for a
   * refund whose amount did not fit. No two refunds of a batch share a payment or a key, and each
   * payment was read completed by readForTestRefunds (completed is final).
   *
   * A refund whose key was taken wrote everything else. `alone` (no transaction around the
   * statement): the statement then aborts itself (STATEMENT_ABORTED), undoing all of it. In a
   * transaction: it reports `claimed` false, and the caller rolls the transaction back.
   */
  async succeedAllAtOnce(
    writes: readonly TestRefundWrite[],
    { alone }: { alone: boolean },
  ): Promise<TestRefundWritten[]> {
    const events = writes.map(({ refund }) => refundOutcomeEvent(refund));
    const amounts = refundSettlementSql('t.refunded_before', 't.amount', 't.fee_bps');
    const delivery = this.outbox.automaticDeliveryTemplate();
    const rows = await this.sql<{ refund_id: string; held: boolean; claimed: boolean; legacy: boolean | null }>(
      `WITH input AS (
         SELECT * FROM json_to_recordset($1::json) AS i(
           refund_id text, payment_id text, merchant_id text, livemode boolean, amount bigint, currency text,
           reason text, refunded_at timestamptz, event_id text, event_type text, event_body text, sales_date date,
           payout_date date, payout_rule text, key text, fingerprint text, status int, body text, ttl_hours int,
           audit_id text, actor text, client_address text)
         -- The hold locks each payment as it meets its input row (the input probes a hash of the
         -- payments): in id order, so two statements sharing payments queue instead of deadlocking.
         ORDER BY i.payment_id
       ), held AS (
         UPDATE payments p
         SET refund_held_amount = p.refund_held_amount + i.amount, refunded_amount = p.refunded_amount + i.amount
         FROM input i
         -- Read by primary key alone, whatever the planner guesses of the input: the status is not
         -- tested here (an index of completed payments would be scanned whole) but was read completed
         -- by readForTestRefunds, and completed is final.
         WHERE p.id = ANY (ARRAY(SELECT payment_id FROM input))
           AND p.id = i.payment_id AND p.merchant_id = i.merchant_id AND p.livemode = i.livemode
           AND i.amount <= ${paymentRemainderSql('p.', 'p.id')}
         RETURNING i.refund_id, p.id, p.merchant_id, p.livemode, p.order_id, i.amount,
                   p.refunded_amount - i.amount AS refunded_before
       ), refund AS (
         INSERT INTO refunds (${REFUND_COLUMNS})
         SELECT held.refund_id, held.id, held.merchant_id, held.livemode, held.order_id, held.amount, i.currency,
                i.reason, 'succeeded', NULL, NULL, NULL, i.refunded_at, i.refunded_at, NULL
         FROM held JOIN input i USING (refund_id)
         RETURNING id
       ), event AS (
         INSERT INTO events (id, merchant_id, livemode, type, payment_id, refund_id, body, created_at, delivery_status,
                             undelivered_reason)
         SELECT e.event_id, e.merchant_id, e.livemode, e.type, e.id, e.refund_id, e.event_body, e.refunded_at,
                ${initialDeliverySql('e', '$2', '$3')}
         FROM (SELECT held.id, held.merchant_id, held.livemode, held.refund_id, i.event_id, i.event_type AS type,
                      i.event_body, i.refunded_at
               FROM held JOIN input i USING (refund_id)) e
         ${endpointsOfEventSql('e')}
         RETURNING id, type, merchant_id, livemode, created_at
       ), delivery AS (
         ${fanOutSql('event')}
       ), queued AS (
         INSERT INTO outbox (routing_key, message_type, payload, headers)
         SELECT $4, $5, jsonb_set(jsonb_set($6::jsonb, '{eventId}', to_jsonb(event_id)), '{endpointId}',
                                  to_jsonb(endpoint_id))::text, $7
         FROM delivery ORDER BY event_id, endpoint_id
       ), t AS (
         SELECT held.*, paid.fee_bps IS NULL AS legacy, COALESCE(paid.fee_bps, 0) AS fee_bps
         FROM held, LATERAL (SELECT (SELECT fee_bps FROM settlements
                                     WHERE payment_id = held.id AND COALESCE(refund_id, '') = '') AS fee_bps) paid
       ), settled AS (
         INSERT INTO settlements (payment_id, merchant_id, livemode, order_id, gross_amount, fee_bps, fee_amount,
           vat_amount, net_amount, sales_date, payout_date, payout_rule, completed_at, type, refund_id)
         SELECT t.id, t.merchant_id, t.livemode, t.order_id, -t.amount, t.fee_bps, ${amounts.feeAmount},
                ${amounts.vatAmount}, ${amounts.netAmount}, i.sales_date, i.payout_date, i.payout_rule, i.refunded_at,
                'refund', t.refund_id
         FROM t JOIN input i USING (refund_id)
         RETURNING 1
       ), claimed AS (
         INSERT INTO idempotency_keys AS k ${IDEMPOTENCY_CLAIM_COLUMNS}
         SELECT held.merchant_id, held.livemode, i.key, i.fingerprint, i.status, i.body, now(),
                now() + make_interval(hours => i.ttl_hours)
         FROM held JOIN input i USING (refund_id)
         ${IDEMPOTENCY_CLAIM_CONFLICT}
         RETURNING k.merchant_id, k.livemode, k.key
       ), audited AS (
         INSERT INTO audit_log (id, merchant_id, actor, action, target, client_address)
         SELECT i.audit_id, held.merchant_id, i.actor, 'refund.created', held.refund_id, i.client_address
         FROM held JOIN input i USING (refund_id)
       )
       SELECT r.*,
              CASE WHEN $8::boolean AND r.held AND NOT r.claimed
                   THEN abort_statement('an idempotency key of the batch was taken meanwhile') END AS aborted
       FROM (SELECT i.refund_id, held.refund_id IS NOT NULL AS held,
                    EXISTS (SELECT 1 FROM claimed c
                            WHERE c.merchant_id = i.merchant_id AND c.livemode = i.livemode AND c.key = i.key) AS claimed,
                    t.legacy
             FROM input i
             LEFT JOIN held USING (refund_id) LEFT JOIN t USING (refund_id)) r`,
      [
        JSON.stringify(
          writes.map(({ refund, sales, payout, claim, by }, n) => ({
            refund_id: refund.id,
            payment_id: refund.paymentId,
            merchant_id: refund.merchantId,
            livemode: refund.livemode,
            amount: refund.amount,
            currency: refund.currency,
            reason: refund.reason,
            refunded_at: refund.succeededAt,
            event_id: events[n].id,
            event_type: events[n].type,
            event_body: JSON.stringify(events[n]),
            sales_date: sales,
            payout_date: payout.date,
            payout_rule: payout.rule,
            key: claim.key,
            fingerprint: claim.fingerprint,
            status: claim.status,
            body: claim.body,
            ttl_hours: claim.ttlHours,
            audit_id: newId('auditEntry'),
            actor: by.actor,
            client_address: by.clientAddress,
          })),
        ),
        DEFAULT_ENABLED_EVENTS,
        NO_ENDPOINT_REASON,
        delivery.routingKey,
        delivery.messageType,
        delivery.payload,
        // The batch's span context: every outbox row carries its cause's.
        delivery.headers,
        alone,
      ],
      'test-refunds',
    );
    const byRefund = new Map(rows.map((row) => [row.refund_id, row]));
    return writes.map(({ refund }) => {
      const row = byRefund.get(refund.id);
      if (!row) throw new Error(`the test refunds statement returned nothing for refund ${refund.id}`);
      if (row.legacy) reportLegacyRefund(refund.paymentId);
      return { held: row.held, claimed: row.claimed };
    });
  }

  /**
   * Reserves `amount` (null: the whole remainder) of a completed payment of the scope for a live
   * refund, pending until the operator sends the money. The remainder is the payment's amount less the
   * vouchers it redeemed (fixed once it completed: voucher value is never paid out as cash) and less
   * its succeeded and pending refunds.
   */
  async hold(scope: MerchantScope, paymentId: string, amount: number | null): Promise<RefundHold | HoldRefusal> {
    // The whole remainder is known only under the row lock: read it there, then reserve exactly it.
    const wanted = amount ?? (await this.remainderLocked(scope, paymentId));
    if (typeof wanted === 'string') return wanted;
    const rows = await this.sql<PaymentRow>(
      `UPDATE payments SET refund_held_amount = refund_held_amount + $4
       WHERE id = $1 AND merchant_id = $2 AND livemode = $3 AND status = 'completed'
         AND $4 <= ${paymentRemainderSql('', '$1')}
       RETURNING ${PAYMENT_COLUMNS}`,
      [paymentId, scope.merchantId, scope.livemode, wanted],
    );
    const [row] = rows;
    if (!row) return this.whyNotHeld(scope, paymentId);
    return { payment: toPaymentRecord(row), amount: wanted };
  }

  /** Inserts a new pending refund, its amount already held. */
  async insertPending(refund: RefundRecord): Promise<void> {
    if (refund.status !== 'pending')
      throw new Error(`refund ${refund.id} is ${refund.status}: only pending is inserted`);
    await this.sql(
      `INSERT INTO refunds (${REFUND_COLUMNS})
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'pending', $9, NULL, NULL, $10, NULL, NULL)`,
      [
        refund.id,
        refund.paymentId,
        refund.merchantId,
        refund.livemode,
        refund.orderId,
        refund.amount,
        refund.currency,
        refund.reason,
        refund.refundAccountSealed,
        refund.createdAt,
      ],
    );
  }

  /**
   * The operator sent the money: pending → succeeded, the amount counted as refunded, with the
   * refund.succeeded event and the settlement record. Null when the refund is not (or no longer) pending.
   * The refund account has served its purpose: it is forgotten with the move (as on a failure).
   */
  async succeed(id: string, bankTransactionId: string): Promise<RefundRecord | null> {
    const rows = await this.sql<RefundRow & { refunded_before: string }>(
      `WITH moved AS (
         UPDATE refunds SET status = 'succeeded', succeeded_at = now(), bank_transaction_id = $2,
                            refund_account_sealed = NULL
         WHERE id = $1 AND status IN (${movableFromSql(REFUND_MOVES, 'succeeded', 'operator')})
         RETURNING ${REFUND_COLUMNS}
       ), counted AS (
         UPDATE payments p SET refunded_amount = p.refunded_amount + moved.amount
         FROM moved WHERE p.id = moved.payment_id
         RETURNING p.refunded_amount - moved.amount AS refunded_before
       )
       SELECT moved.*, counted.refunded_before FROM moved, counted`,
      [id, bankTransactionId],
    );
    const [row] = rows;
    if (!row) return null;
    const refund = toRefundRecord(row);
    await this.recordSuccess(refund, Number(row.refunded_before));
    return refund;
  }

  /** The money could not be sent: pending → failed, its amount refundable again, with refund.failed; the account is forgotten. */
  async fail(id: string, failureReason: string): Promise<RefundRecord | null> {
    const rows = await this.sql<RefundRow>(
      `WITH moved AS (
         UPDATE refunds SET status = 'failed', failed_at = now(), failure_reason = $2,
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

  private async recordSuccess(refund: RefundRecord, refundedBefore: number): Promise<void> {
    await this.events.record([toNewRefundEvent(refund, refundOutcomeEvent(refund))]);
    await this.settlements.recordRefund(refund, refundedBefore);
  }

  /** The remainder of a completed payment of the scope, its row locked until the transaction ends. */
  async remainderLocked(scope: MerchantScope, paymentId: string): Promise<number | HoldRefusal> {
    const rows = await this.sql<{ status: string; remainder: string }>(
      `SELECT status, ${paymentRemainderSql('', '$1')} AS remainder FROM payments
       WHERE id = $1 AND merchant_id = $2 AND livemode = $3 FOR UPDATE`,
      [paymentId, scope.merchantId, scope.livemode],
    );
    const [row] = rows;
    if (!row) return 'payment_not_found';
    if (row.status !== 'completed') return 'payment_not_completed';
    const remainder = Number(row.remainder);
    return remainder > 0 ? remainder : 'amount_exceeded';
  }

  private async whyNotHeld(scope: MerchantScope, paymentId: string): Promise<HoldRefusal> {
    const rows = await this.sql<{ status: string }>(
      `SELECT status FROM payments WHERE id = $1 AND merchant_id = $2 AND livemode = $3`,
      [paymentId, scope.merchantId, scope.livemode],
    );
    const [row] = rows;
    if (!row) return 'payment_not_found';
    return row.status === 'completed' ? 'amount_exceeded' : 'payment_not_completed';
  }
}
