import type { MerchantScope } from '@payhook/auth';
import type { Sql } from '@payhook/persistence';
import { voucherValueSql } from './amount-due';
import { refundOutcomeEvent, toNewRefundEvent, type EventWriter } from './event-writer';
import { PAYMENT_COLUMNS, toPaymentRecord, type PaymentRecord, type PaymentRow } from './payment-record';
import { REFUND_COLUMNS, toRefundRecord, type RefundRecord, type RefundRow } from './refund-record';
import type { SettlementWriter } from './settlement-writer';

/** A refund's amount reserved on its payment (succeeded + pending refunds never exceed the payment). */
export interface RefundHold {
  payment: PaymentRecord;
  amount: number;
  /** The payment's refunded_amount before this refund, read under its row lock (R₀ of DESIGN §9). */
  refundedBefore: number;
}

/** Why no amount was reserved: no such payment in the scope, not completed, or too little left. */
export type HoldRefusal = 'payment_not_found' | 'payment_not_completed' | 'amount_exceeded';

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
  ) {}

  /**
   * Reserves `amount` (null: the whole remainder) of a completed payment of the scope; `succeedNow`
   * (test mode) also counts it as refunded at once. The remainder is the payment's amount less the
   * vouchers it redeemed (fixed once it completed: voucher value is never paid out as cash) and less
   * its succeeded and pending refunds.
   */
  async hold(
    scope: MerchantScope,
    paymentId: string,
    amount: number | null,
    succeedNow: boolean,
  ): Promise<RefundHold | HoldRefusal> {
    // The whole remainder is known only under the row lock: read it there, then reserve exactly it.
    const wanted = amount ?? (await this.lockedRemainder(scope, paymentId));
    if (typeof wanted === 'string') return wanted;
    const rows = await this.sql<PaymentRow>(
      `UPDATE payments
       SET refund_held_amount = refund_held_amount + $4,
           refunded_amount = refunded_amount + CASE WHEN $5 THEN $4 ELSE 0 END
       WHERE id = $1 AND merchant_id = $2 AND livemode = $3 AND status = 'completed'
         AND refund_held_amount + $4 <= amount - ${voucherValueSql('$1')}
       RETURNING ${PAYMENT_COLUMNS}`,
      [paymentId, scope.merchantId, scope.livemode, wanted, succeedNow],
    );
    const [row] = rows;
    if (!row) return this.whyNotHeld(scope, paymentId);
    const payment = toPaymentRecord(row);
    const refundedAfter = payment.refundedAmount;
    return {
      payment,
      amount: wanted,
      refundedBefore: succeedNow ? refundedAfter - wanted : refundedAfter,
    };
  }

  /** Inserts a new refund (its amount already held); a succeeded one also gets its event and settlement record. */
  async insert(refund: RefundRecord, refundedBefore: number): Promise<void> {
    await this.sql(
      `INSERT INTO refunds (${REFUND_COLUMNS})
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, NULL, NULL, $11, $12, NULL)`,
      [
        refund.id,
        refund.paymentId,
        refund.merchantId,
        refund.livemode,
        refund.orderId,
        refund.amount,
        refund.currency,
        refund.reason,
        refund.status,
        refund.refundAccountSealed,
        refund.createdAt,
        refund.succeededAt,
      ],
    );
    if (refund.status === 'succeeded') await this.recordSuccess(refund, refundedBefore);
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
  private async lockedRemainder(scope: MerchantScope, paymentId: string): Promise<number | HoldRefusal> {
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
