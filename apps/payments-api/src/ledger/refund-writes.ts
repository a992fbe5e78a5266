import type { MerchantScope } from '@payhook/auth';
import { DEFAULT_ENABLED_EVENTS, type DeliveryStatus } from '@payhook/contracts';
import type { Sql } from '@payhook/persistence';
import { voucherValueSql } from './amount-due';
import type { PayoutRule } from './business-days';
import {
  deliveryStatusSql,
  endpointOfEventSql,
  refundOutcomeEvent,
  toNewRefundEvent,
  type EventWriter,
} from './event-writer';
import { IDEMPOTENCY_CLAIM_COLUMNS, IDEMPOTENCY_CLAIM_CONFLICT, type IdempotencyClaim } from './idempotency-claims';
import type { OutboxWriter } from './outbox-writer';
import { PAYMENT_COLUMNS, toPaymentRecord, type PaymentRecord, type PaymentRow } from './payment-record';
import { REFUND_COLUMNS, toRefundRecord, type RefundRecord, type RefundRow } from './refund-record';
import { salesDate } from './settlement-calculation';
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
 * What a test refund's one statement needs to know before its transaction, read without a lock
 * (readTestRefundFacts): the payment's order (never changes) and the payout of a record on the sales
 * date of `at` (the merchant's delay and non-banking days as they are a moment before the refund,
 * as a refund a moment earlier would have seen them).
 */
export interface TestRefundFacts {
  orderId: string;
  at: Date;
  sales: string;
  payout: { date: string; rule: PayoutRule };
}

/**
 * One read on the primary, outside the refund's transaction: the payment of the scope (a refusal when
 * there is none or it is not completed: a completed payment stays completed) and the payout terms of
 * its merchant on the sales date of `at` (Asia/Seoul).
 */
export async function readTestRefundFacts(
  sql: Sql,
  scope: MerchantScope,
  paymentId: string,
  at: Date,
): Promise<TestRefundFacts | HoldRefusal> {
  const sales = salesDate(at);
  const [row] = await sql<PayoutTerms & { order_id: string; status: string }>(
    `SELECT p.order_id, p.status, ${PAYOUT_TERMS_SQL}
     FROM payments p JOIN merchants m ON m.id = p.merchant_id
     WHERE p.id = $3 AND p.merchant_id = $1 AND p.livemode = $4`,
    [scope.merchantId, sales, paymentId, scope.livemode],
  );
  if (!row) return 'payment_not_found';
  if (row.status !== 'completed') return 'payment_not_completed';
  return { orderId: row.order_id, at, sales, payout: payoutOf(sales, row) };
}

/**
 * Every money move of a refund (DESIGN §9, ADR 0014). The database decides: the reserve is a guarded
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
   * A test refund, succeeded at once, in ONE statement (as create, ADR 0013): the guarded hold on the
   * payment (its row lock; refunded_amount counted too) returning R₀, the refund row, refund.succeeded
   * (body built here beforehand; its outbox row, when its delivery is pending, follows in a statement of
   * its own, see below), the settlement
   * record with its amounts computed in SQL from R₀ at the fee rate of the payment's own record (0
   * for a payment settled before records existed), and the idempotency key claim. Each write selects
   * from the hold, so nothing is written when nothing was held. `claimed` false: the key was taken,
   * the caller rolls the transaction back. `refund.amount` must be known (remainderLocked for "all").
   */
  async succeedAtOnce(
    refund: RefundRecord,
    facts: TestRefundFacts,
    claim: IdempotencyClaim,
  ): Promise<{ claimed: boolean } | HoldRefusal> {
    const scope = { merchantId: refund.merchantId, livemode: refund.livemode };
    const event = refundOutcomeEvent(refund);
    const amounts = refundSettlementSql('t.refunded_before', '$4::bigint', 't.fee_bps');
    const rows = await this.sql<{ claimed: boolean; legacy: boolean; delivery_status: DeliveryStatus }>(
      `WITH held AS (
         UPDATE payments
         SET refund_held_amount = refund_held_amount + $4::bigint, refunded_amount = refunded_amount + $4
         WHERE id = $1 AND merchant_id = $2 AND livemode = $3 AND status = 'completed'
           AND refund_held_amount + $4 <= amount - ${voucherValueSql('$1')}
         RETURNING id, merchant_id, livemode, order_id, refunded_amount - $4 AS refunded_before
       ), refund AS (
         INSERT INTO refunds (${REFUND_COLUMNS})
         SELECT $5, held.id, held.merchant_id, held.livemode, held.order_id, $4, $6::text, $7::text, 'succeeded',
                NULL, NULL, NULL, $8::timestamptz, $8::timestamptz, NULL
         FROM held
         RETURNING id
       ), event AS (
         INSERT INTO events (id, merchant_id, livemode, type, payment_id, refund_id, body, created_at, delivery_status)
         SELECT $9::text, e.merchant_id, e.livemode, e.type, e.id, $5, $11::text, $8::timestamptz, ${deliveryStatusSql('e', '$12')}
         FROM (SELECT held.id, held.merchant_id, held.livemode, $10::text AS type FROM held) e
         ${endpointOfEventSql('e')}
         RETURNING delivery_status
       ), t AS (
         SELECT held.*, paid.fee_bps IS NULL AS legacy, COALESCE(paid.fee_bps, 0) AS fee_bps
         FROM held, LATERAL (SELECT (SELECT fee_bps FROM settlements
                                     WHERE payment_id = held.id AND COALESCE(refund_id, '') = '') AS fee_bps) paid
       ), settled AS (
         INSERT INTO settlements (payment_id, merchant_id, livemode, order_id, gross_amount, fee_bps, fee_amount,
           vat_amount, net_amount, sales_date, payout_date, payout_rule, completed_at, type, refund_id)
         SELECT t.id, t.merchant_id, t.livemode, t.order_id, -$4::bigint, t.fee_bps, ${amounts.feeAmount},
                ${amounts.vatAmount}, ${amounts.netAmount}, $13::date, $14::date, $15::text, $8::timestamptz, 'refund', $5
         FROM t
         RETURNING 1
       ), claimed AS (
         INSERT INTO idempotency_keys AS k ${IDEMPOTENCY_CLAIM_COLUMNS}
         SELECT $2, $3, $16::text, $17::text, $18::int, $19::text, now(), now() + make_interval(hours => $20::int)
         FROM held
         ${IDEMPOTENCY_CLAIM_CONFLICT}
         RETURNING 1
       )
       SELECT EXISTS (SELECT 1 FROM claimed) AS claimed, t.legacy, event.delivery_status FROM t, event`,
      [
        refund.paymentId,
        scope.merchantId,
        scope.livemode,
        refund.amount,
        refund.id,
        refund.currency,
        refund.reason,
        facts.at,
        event.id,
        event.type,
        JSON.stringify(event),
        DEFAULT_ENABLED_EVENTS,
        facts.sales,
        facts.payout.date,
        facts.payout.rule,
        claim.key,
        claim.fingerprint,
        claim.status,
        claim.body,
        claim.ttlHours,
      ],
    );
    const [row] = rows;
    if (!row) return this.whyNotHeld(scope, refund.paymentId);
    if (row.legacy) reportLegacyRefund(refund.paymentId);
    // Its own statement, and only for a delivery: outbox_notify fires per INSERT statement, rows or
    // none, and a NOTIFY serialises commits (every refund's COMMIT queued on the notify lock).
    if (row.claimed && row.delivery_status === 'pending')
      await this.outbox.enqueue([{ eventId: event.id, retryStep: 0, manual: false }]);
    return { claimed: row.claimed };
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
         AND refund_held_amount + $4 <= amount - ${voucherValueSql('$1')}
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
         WHERE id = $1 AND status = 'pending'
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
         WHERE id = $1 AND status = 'pending'
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
      `SELECT status, amount - ${voucherValueSql('$1')} - refund_held_amount AS remainder FROM payments
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
