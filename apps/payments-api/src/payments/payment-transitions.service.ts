import { Inject, Injectable } from '@nestjs/common';
import { newId, type PaymentCompletedEvent, type PaymentStatus, type PaymentView } from '@payhook/contracts';
import { isUniqueViolation, type Sql } from '@payhook/persistence';
import { PaymentsApiEnv } from '../config/payments-api.env';
import { EventsRepository } from '../events/events.repository';
import { SettlementsRepository } from '../settlements/settlements.repository';
import { PaymentException } from './payment.exception';
import type { MerchantScope, PaymentRecord } from './payment.record';
import { effectiveStatus, toPaymentView } from './payment.view';
import { PaymentsRepository } from './payments.repository';

export type FinalStatus = Exclude<PaymentStatus, 'pending'>;

/**
 * Every requested move out of `pending` (the expiry sweeper aside). A completion writes its payment.completed event,
 * the event's outbox row and the settlement record in the same transaction, so a completed payment always gets its
 * webhook and its settlement.
 */
@Injectable()
export class PaymentTransitionsService {
  constructor(
    private readonly payments: PaymentsRepository,
    @Inject(PaymentsApiEnv) private readonly env: PaymentsApiEnv,
  ) {}

  /** `scope` null: the operator (confirm-receipt), who may act on any merchant's payment. */
  async transition(scope: MerchantScope | null, id: string, to: FinalStatus): Promise<PaymentView> {
    const moved = await this.payments.transaction((sql) => this.transitionWithin(sql, scope, id, to));
    if (moved) return toPaymentView(moved, this.env.PAY_URL);

    const current = scope ? await this.payments.findById(scope, id) : await this.payments.findAnyById(id);
    if (!current) throw new PaymentException('resource_not_found', `No such payment: ${id}.`, 'id');
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
    if (payment?.completedAt) await recordCompletion(sql, payment, payment.completedAt);
    return payment;
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
    if (payment?.completedAt) await recordCompletion(sql, payment, payment.completedAt);
    return payment;
  }
}

async function recordCompletion(sql: Sql, payment: PaymentRecord, at: Date): Promise<void> {
  const event = completedEvent(payment, at);
  await EventsRepository.insertWithDelivery(sql, {
    id: event.id,
    merchantId: payment.merchantId,
    livemode: payment.livemode,
    type: event.type,
    paymentId: payment.id,
    body: JSON.stringify(event),
    createdAt: at,
  });
  await SettlementsRepository.recordCompletion(sql, { ...payment, completedAt: at });
}

function completedEvent(payment: PaymentRecord, at: Date): PaymentCompletedEvent {
  return {
    id: newId('event'),
    type: 'payment.completed',
    createdAt: at.toISOString(),
    data: {
      paymentId: payment.id,
      orderId: payment.orderId,
      amount: payment.amount,
      currency: payment.currency,
      completedAt: at.toISOString(),
    },
  };
}
