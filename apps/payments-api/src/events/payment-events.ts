import { newId, type PaymentEvent, type PaymentStatus } from '@payhook/contracts';
import type { PaymentRecord } from '../payments/payment.record';
import type { NewEvent } from './events.repository';

export type PaymentOutcome = Exclude<PaymentStatus, 'pending'>;

/**
 * The webhook body announcing that `payment` left `pending` for `outcome` at `at` (DESIGN.md §5, §8).
 * payment.completed keeps exactly its original `data`; the other outcomes carry the status and
 * their own instant.
 */
export function paymentOutcomeEvent(payment: PaymentRecord, outcome: PaymentOutcome, at: Date): PaymentEvent {
  const id = newId('event');
  const createdAt = at.toISOString();
  const { id: paymentId, orderId, amount, currency } = payment;
  switch (outcome) {
    case 'completed':
      return {
        id,
        type: 'payment.completed',
        createdAt,
        data: { paymentId, orderId, amount, currency, completedAt: createdAt },
      };
    case 'failed':
      return {
        id,
        type: 'payment.failed',
        createdAt,
        data: { paymentId, orderId, amount, currency, status: outcome, failedAt: createdAt },
      };
    case 'canceled':
      return {
        id,
        type: 'payment.canceled',
        createdAt,
        data: { paymentId, orderId, amount, currency, status: outcome, canceledAt: createdAt },
      };
    case 'expired':
      return {
        id,
        type: 'payment.expired',
        createdAt,
        data: { paymentId, orderId, amount, currency, status: outcome, expiredAt: createdAt },
      };
  }
}

/** The events row of an outcome event: its bytes are fixed here and sent unchanged in every attempt. */
export function toNewEvent(payment: PaymentRecord, event: PaymentEvent): NewEvent {
  return {
    id: event.id,
    merchantId: payment.merchantId,
    livemode: payment.livemode,
    type: event.type,
    paymentId: payment.id,
    body: JSON.stringify(event),
    createdAt: new Date(event.createdAt),
  };
}
