import { Inject, Injectable } from '@nestjs/common';
import type { PaymentView } from '@payhook/contracts';
import { isUniqueViolation, type Sql } from '@payhook/persistence';
import { PaymentsApiEnv } from '../config/payments-api.env';
import { EventsRepository } from '../events/events.repository';
import { paymentOutcomeEvent, toNewEvent, type PaymentOutcome } from '../events/payment-events';
import { SettlementsRepository } from '../settlements/settlements.repository';
import { PaymentException } from './payment.exception';
import type { MerchantScope, PaymentRecord } from './payment.record';
import { effectiveStatus, toPaymentView } from './payment.view';
import { PaymentsRepository } from './payments.repository';
import { inSpan } from '@payhook/observability';

export type FinalStatus = PaymentOutcome;

/**
 * Every move out of `pending`. Each writes its event (payment.completed, .failed, .canceled or
 * .expired) with the event's outbox row in the same transaction, and a completion its settlement
 * record too, so every outcome gets its webhook and a completed payment its payout. The database
 * decides races (compare-and-set from pending): exactly one move wins, and it alone writes an event.
 */
@Injectable()
export class PaymentTransitionsService {
  constructor(
    private readonly payments: PaymentsRepository,
    @Inject(PaymentsApiEnv) private readonly env: PaymentsApiEnv,
  ) {}

  /**
   * `scope` null: the operator (confirm-receipt), who may act on any merchant's payment.
   * `again: 'answer'`: a payment already in `to` is answered as it is (a merchant's cancel, repeated).
   */
  async transition(
    scope: MerchantScope | null,
    id: string,
    to: FinalStatus,
    again: 'conflict' | 'answer' = 'conflict',
  ): Promise<PaymentView> {
    // The move and its event commit together; the event's delivery continues this span's trace.
    const moved = await inSpan(`payment ${to}`, { attributes: { 'payhook.payment_id': id } }, () =>
      this.payments.transaction((sql) => this.transitionWithin(sql, scope, id, to)),
    );
    if (moved) return toPaymentView(moved, this.env.PAY_URL);

    const current = scope ? await this.payments.findById(scope, id) : await this.payments.findAnyById(id);
    if (!current) throw new PaymentException('resource_not_found', `No such payment: ${id}.`, 'id');
    if (again === 'answer' && current.status === to) return toPaymentView(current, this.env.PAY_URL);
    throw new PaymentException(
      'payment_state_conflict',
      `Payment ${id} is ${effectiveStatus(current)}; only a pending payment can become ${to}.`,
    );
  }

  /** The same move inside the caller's transaction (deposit matching, voucher redemption); null when not pending. */
  async transitionWithin(
    sql: Sql,
    scope: MerchantScope | null,
    id: string,
    to: FinalStatus,
  ): Promise<PaymentRecord | null> {
    const payment = await this.payments.transitionFromPending(sql, scope, id, to);
    if (payment) await recordOutcomes(sql, [{ payment, outcome: to }]);
    return payment;
  }

  /** The sweeper's batch: overdue pending payments become expired, each with its payment.expired event. */
  expireOverdue(batchSize: number): Promise<number> {
    return this.payments.transaction(async (sql) => {
      const expired = await this.payments.expireOverdue(sql, batchSize);
      await recordOutcomes(
        sql,
        expired.map((payment) => ({ payment, outcome: 'expired' as const })),
      );
      return expired.length;
    });
  }

  /** An overdue pending payment that holds an order becomes expired (with its event), freeing the order. */
  expireIfOverdue(id: string): Promise<boolean> {
    return this.payments.transaction(async (sql) => {
      const payment = await this.payments.expireIfOverdue(sql, id);
      if (payment) await recordOutcomes(sql, [{ payment, outcome: 'expired' }]);
      return payment !== null;
    });
  }

  /**
   * An operator's completion through the review queue: money arrived for a payment that is pending or has expired
   * meanwhile. It sends the normal payment.completed event. Null when the payment is in another state.
   */
  async completeAfterReview(sql: Sql, id: string): Promise<PaymentRecord | null> {
    const payment = await this.payments.completeEvenIfExpired(sql, id).catch((error: unknown) => {
      if (!isUniqueViolation(error)) throw error;
      throw new PaymentException(
        'order_already_active',
        `Payment ${id} cannot complete: its order already has another pending or completed payment.`,
      );
    });
    if (payment) await recordOutcomes(sql, [{ payment, outcome: 'completed' }]);
    return payment;
  }
}

/**
 * The events of moves just made in `sql`'s transaction, and the settlement record of each completion.
 * A completion is announced at its completedAt; an expiry at expiresAt when the sweeper comes later
 * (reads showed it expired from then on); any other move now.
 */
async function recordOutcomes(sql: Sql, moves: { payment: PaymentRecord; outcome: PaymentOutcome }[]): Promise<void> {
  const now = new Date();
  const instant = ({ payment, outcome }: (typeof moves)[number]): Date => {
    if (outcome === 'completed' && payment.completedAt) return payment.completedAt;
    if (outcome === 'expired' && payment.expiresAt < now) return payment.expiresAt;
    return now;
  };
  await EventsRepository.insertWithDelivery(
    sql,
    moves.map((move) => toNewEvent(move.payment, paymentOutcomeEvent(move.payment, move.outcome, instant(move)))),
  );
  for (const { payment, outcome } of moves) {
    if (outcome === 'completed')
      await SettlementsRepository.recordCompletion(sql, { ...payment, completedAt: instant({ payment, outcome }) });
  }
}
