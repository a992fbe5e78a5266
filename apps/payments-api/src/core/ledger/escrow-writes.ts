import type { MerchantScope } from '@payhook/auth';
import type { Sql } from '@payhook/persistence';
import { escrowAutoConfirmAt } from './escrow-calendar';
import { escrowOutcomeEvent, toNewEvent, type EventWriter } from './event-writer';
import { ESCROW_MOVES, movableFromSql } from './moves-table';
import { PAYMENT_COLUMNS, toPaymentRecord, type PaymentRecord, type PaymentRow } from './payment-record';
import { paymentRemainderSql } from './refundable-remainder';
import type { ReviewCaseWrites } from './review-case-writes';
import type { SettlementWriter } from './settlement-writer';

/** A shipment as the merchant registers it. */
export interface Shipment {
  carrier: string;
  trackingNumber: string;
}

/** Why a shipment was not registered. */
export type ShipmentRefusal = 'payment_not_found' | 'payment_not_completed' | 'escrow_not_open';

/** A registered shipment: the payment as it is now, and, at the first shipment only, who to tell. */
export interface Shipped {
  payment: PaymentRecord;
  /** The buyer's address, when this was the first shipment (the buyer's link goes there); else null. */
  firstShipmentTo: string | null;
}

/** Which escrow a buyer's move is for: a payment of a merchant's scope (test helpers), or the buyer's link. */
export type EscrowTarget = { scope: MerchantScope; paymentId: string } | { tokenDigest: Buffer };

/** The operator's non-banking days after the transaction's date in Asia/Seoul, within the furthest auto-confirm. */
const NON_BANKING_DAYS_AHEAD_SQL = `ARRAY(SELECT to_char(date, 'YYYY-MM-DD') FROM non_banking_days
  WHERE date >= (now() AT TIME ZONE 'Asia/Seoul')::date AND date <= (now() AT TIME ZONE 'Asia/Seoul')::date + 120)`;

/**
 * The WHERE condition of a target ($1, and $2, $3, are its parameters) and the suffix of the prepared
 * statement's name: a name stands for one text.
 */
function targetSql(target: EscrowTarget): { where: string; params: unknown[]; named: string } {
  return 'tokenDigest' in target
    ? { where: 'escrow_token_digest = $1', params: [target.tokenDigest], named: 'by-link' }
    : {
        where: 'id = $1 AND merchant_id = $2 AND livemode = $3',
        params: [target.paymentId, target.scope.merchantId, target.scope.livemode],
        named: 'in-scope',
      };
}

/**
 * Every write of an escrow (구매안전서비스), issue 52: the merchant's shipment, the buyer's
 * confirmation or rejection, the auto-confirm task's confirmation. Each is a compare-and-set from the
 * statuses ESCROW_MOVES names on the payment's row, so the database decides races: one confirmation
 * or rejection wins, and it alone writes its event, schedules the held payout (a confirmation) or
 * opens the operator's review case (a rejection), in the caller's transaction.
 */
export class EscrowWrites {
  constructor(
    private readonly sql: Sql,
    private readonly events: EventWriter,
    private readonly settlements: SettlementWriter,
    private readonly reviewCases: ReviewCaseWrites,
  ) {}

  /**
   * The merchant's shipment of a completed escrow payment of `scope`, under the payment's row lock:
   * the first sets shippedAt (the transaction's instant), autoConfirmAt (`autoConfirmDays` business
   * days on) and the digest of the buyer's link token; a correction while shipped changes the carrier
   * and tracking number only.
   */
  async ship(
    scope: MerchantScope,
    paymentId: string,
    shipment: Shipment,
    link: { tokenDigest: Buffer; autoConfirmDays: number },
  ): Promise<Shipped | ShipmentRefusal> {
    const [locked] = await this.sql<{
      status: string;
      escrow_status: string | null;
      now: Date;
      extra_days: string[];
    }>(
      `SELECT status, escrow_status, now() AS now, ${NON_BANKING_DAYS_AHEAD_SQL} AS extra_days
       FROM payments WHERE id = $1 AND merchant_id = $2 AND livemode = $3 FOR UPDATE`,
      [paymentId, scope.merchantId, scope.livemode],
      'lock-escrow-shipment',
    );
    if (!locked) return 'payment_not_found';
    if (locked.status !== 'completed') return 'payment_not_completed';
    const from = movableFromSql(ESCROW_MOVES, 'shipped', 'merchant');
    const autoConfirmAt = escrowAutoConfirmAt(locked.now, link.autoConfirmDays, new Set(locked.extra_days));
    const rows = await this.sql<PaymentRow & { escrow_buyer_email: string }>(
      `UPDATE payments
       SET escrow_status = 'shipped', escrow_carrier = $2, escrow_tracking_number = $3,
           escrow_shipped_at = COALESCE(escrow_shipped_at, date_trunc('milliseconds', now())),
           escrow_auto_confirm_at = COALESCE(escrow_auto_confirm_at, $4),
           escrow_token_digest = COALESCE(escrow_token_digest, $5), updated_at = now()
       WHERE id = $1 AND escrow_status IN (${from})
       RETURNING ${PAYMENT_COLUMNS}, escrow_buyer_email`,
      [paymentId, shipment.carrier, shipment.trackingNumber, autoConfirmAt, link.tokenDigest],
      'ship-escrow',
    );
    if (!rows[0]) return 'escrow_not_open';
    return {
      payment: toPaymentRecord(rows[0]),
      firstShipmentTo: locked.escrow_status === 'awaiting_shipment' ? rows[0].escrow_buyer_email : null,
    };
  }

  /**
   * The buyer's confirmation of a shipped escrow (`buyer`), with its event and the payout scheduled.
   * Null when the target's escrow is not shipped (or there is none).
   */
  async confirm(target: EscrowTarget): Promise<PaymentRecord | null> {
    const { where, params, named } = targetSql(target);
    const rows = await this.sql<PaymentRow>(
      `UPDATE payments
       SET escrow_status = 'confirmed', escrow_confirmed_at = date_trunc('milliseconds', now()),
           escrow_auto_confirmed = false, updated_at = now()
       WHERE ${where} AND escrow_status IN (${movableFromSql(ESCROW_MOVES, 'confirmed', 'buyer')})
       RETURNING ${PAYMENT_COLUMNS}`,
      params,
      `confirm-escrow-${named}`,
    );
    const confirmed = rows.map(toPaymentRecord);
    await this.recordConfirmations(confirmed);
    return confirmed[0] ?? null;
  }

  /**
   * The buyer's rejection of a shipped escrow still open (before its autoConfirmAt: from then on it
   * is confirmed, whether or not the task has come yet), with its event and a review case
   * `escrow_rejected` for the operator, of what the escrow still holds; the payout stays held. Null
   * when the target's escrow is not shipped or its day has come.
   */
  async reject(target: EscrowTarget, reason: string): Promise<PaymentRecord | null> {
    const { where, params, named } = targetSql(target);
    const reasonParam = `$${params.length + 1}`;
    const rows = await this.sql<PaymentRow & { refundable: string }>(
      `UPDATE payments
       SET escrow_status = 'rejected', escrow_rejected_at = date_trunc('milliseconds', now()),
           escrow_reject_reason = ${reasonParam}, updated_at = now()
       WHERE ${where} AND escrow_status IN (${movableFromSql(ESCROW_MOVES, 'rejected', 'buyer')})
         AND escrow_auto_confirm_at > now()
       RETURNING ${PAYMENT_COLUMNS}, ${paymentRemainderSql('', 'id')} AS refundable`,
      [...params, reason],
      `reject-escrow-${named}`,
    );
    const rejected = rows[0] ? toPaymentRecord(rows[0]) : null;
    if (!rejected) return null;
    await this.events.record([toNewEvent(rejected, escrowOutcomeEvent(rejected))]);
    await this.reviewCases.open({
      livemode: rejected.livemode,
      source: 'escrow',
      reason: 'escrow_rejected',
      // What the escrow still holds: paid, not refunded or held by a pending refund, not vouchers.
      amount: Number(rows[0].refundable),
      merchantId: rejected.merchantId,
      paymentId: rejected.id,
    });
    return rejected;
  }

  /**
   * The auto-confirm task's batch: shipped escrows past autoConfirmAt are confirmed (`clock`), each
   * with its event and its payout scheduled, several instances sharing the work (SKIP LOCKED: a row
   * another instance is confirming is left to it; the compare-and-set confirms each once). Confirmed
   * at autoConfirmAt, however late the task came (never before the shipment itself: a day of 0
   * business days began before it).
   */
  async confirmDue(batchSize: number): Promise<PaymentRecord[]> {
    const from = movableFromSql(ESCROW_MOVES, 'confirmed', 'clock');
    const rows = await this.sql<PaymentRow>(
      `UPDATE payments
       SET escrow_status = 'confirmed', escrow_confirmed_at = GREATEST(escrow_auto_confirm_at, escrow_shipped_at),
           escrow_auto_confirmed = true, updated_at = now()
       WHERE id = ANY (ARRAY(SELECT id FROM payments WHERE escrow_status IN (${from}) AND escrow_auto_confirm_at <= now()
                             ORDER BY escrow_auto_confirm_at LIMIT $1 FOR UPDATE SKIP LOCKED))
         AND escrow_status IN (${from})
       RETURNING ${PAYMENT_COLUMNS}`,
      [batchSize],
      'confirm-due-escrows',
    );
    const confirmed = rows.map(toPaymentRecord);
    await this.recordConfirmations(confirmed);
    return confirmed;
  }

  /** What follows confirmations just made: their events and their held payouts scheduled. */
  private async recordConfirmations(confirmed: readonly PaymentRecord[]): Promise<void> {
    await this.events.record(confirmed.map((payment) => toNewEvent(payment, escrowOutcomeEvent(payment))));
    await this.settlements.releaseHeld(
      confirmed.map((payment) => ({
        paymentId: payment.id,
        merchantId: payment.merchantId,
        confirmedAt: payment.escrow!.confirmedAt!,
      })),
    );
  }
}
