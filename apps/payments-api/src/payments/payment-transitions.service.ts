import { Inject, Injectable } from '@nestjs/common';
import { newId, type PaymentCompletedEvent, type PaymentStatus, type PaymentView } from '@payhook/contracts';
import { PaymentsApiEnv } from '../config/payments-api.env';
import { EventsRepository } from '../events/events.repository';
import { PaymentException } from './payment.exception';
import type { MerchantScope, PaymentRecord } from './payment.record';
import { effectiveStatus, toPaymentView } from './payment.view';
import { PaymentsRepository } from './payments.repository';

export type FinalStatus = Exclude<PaymentStatus, 'pending'>;

/**
 * Every requested move out of `pending` (the expiry sweeper aside). A completion writes its payment.completed event and the
 * event's outbox row in the same transaction, so a completed payment always gets its webhook.
 */
@Injectable()
export class PaymentTransitionsService {
  constructor(
    private readonly payments: PaymentsRepository,
    @Inject(PaymentsApiEnv) private readonly env: PaymentsApiEnv,
  ) {}

  /** `scope` null: the operator (confirm-receipt), who may act on any merchant's payment. */
  async transition(scope: MerchantScope | null, id: string, to: FinalStatus): Promise<PaymentView> {
    const moved = await this.payments.transaction(async (sql) => {
      const payment = await this.payments.transitionFromPending(sql, scope, id, to);
      if (payment?.completedAt) {
        const at = payment.completedAt;
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
      }
      return payment;
    });
    if (moved) return toPaymentView(moved, this.env.PAY_URL);

    const current = scope ? await this.payments.findById(scope, id) : await this.payments.findAnyById(id);
    if (!current) throw new PaymentException('resource_not_found', `No such payment: ${id}.`, 'id');
    throw new PaymentException(
      'payment_state_conflict',
      `Payment ${id} is ${effectiveStatus(current)}; only a pending payment can become ${to}.`,
    );
  }
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
