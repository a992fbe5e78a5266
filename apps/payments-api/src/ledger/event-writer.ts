import {
  DEFAULT_ENABLED_EVENTS,
  newId,
  type DeliveryStatus,
  type EventType,
  type PaymentEvent,
  type RefundEvent,
} from '@payhook/contracts';
import type { MerchantScope } from '@payhook/auth';
import type { Sql } from '@payhook/persistence';
import type { OutboxWriter } from './outbox-writer';
import type { PaymentOutcome } from './payment-moves-table';
import type { PaymentRecord } from './payment-record';
import type { RefundRecord } from './refund-record';

/** An events row: its body's bytes are fixed here and sent unchanged in every attempt. */
export interface NewEvent {
  id: string;
  merchantId: string;
  livemode: boolean;
  type: EventType;
  paymentId: string;
  /** The refund a refund.* event announces; null for payment events. */
  refundId: string | null;
  body: string;
  createdAt: Date;
}

// Every event type the payments-api writes is built in this file: payment.* and refund.*.

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

/** The events row of a payment's event. */
export function toNewEvent(payment: PaymentRecord, event: PaymentEvent): NewEvent {
  return {
    id: event.id,
    merchantId: payment.merchantId,
    livemode: payment.livemode,
    type: event.type,
    paymentId: payment.id,
    refundId: null,
    body: JSON.stringify(event),
    createdAt: new Date(event.createdAt),
  };
}

/**
 * The webhook body announcing that `refund` ended (DESIGN.md §9): refund.succeeded at its
 * succeededAt, refund.failed at its failedAt. Only a refund that has ended has an event.
 */
export function refundOutcomeEvent(refund: RefundRecord): RefundEvent {
  const { id: refundId, paymentId, orderId, amount, currency, reason } = refund;
  const outcome = { refundId, paymentId, orderId, amount, currency, reason };
  if (refund.status === 'succeeded' && refund.succeededAt) {
    const at = refund.succeededAt.toISOString();
    return {
      id: newId('event'),
      type: 'refund.succeeded',
      createdAt: at,
      data: { ...outcome, status: 'succeeded', succeededAt: at },
    };
  }
  if (refund.status === 'failed' && refund.failedAt) {
    const at = refund.failedAt.toISOString();
    return {
      id: newId('event'),
      type: 'refund.failed',
      createdAt: at,
      data: { ...outcome, status: 'failed', failedAt: at },
    };
  }
  throw new Error(`refund ${refund.id} is ${refund.status}: no event announces it yet`);
}

/** The events row of a refund's event: listed with its payment's other events. */
export function toNewRefundEvent(refund: RefundRecord, event: RefundEvent): NewEvent {
  return {
    id: event.id,
    merchantId: refund.merchantId,
    livemode: refund.livemode,
    type: event.type,
    paymentId: refund.paymentId,
    refundId: refund.id,
    body: JSON.stringify(event),
    createdAt: new Date(event.createdAt),
  };
}

/**
 * The delivery state an event starts in, for a statement that selects `event` (with its type,
 * merchant_id and livemode) joined by ENDPOINT_OF_EVENT: pending when the mode's endpoint has enabled
 * its type (with no endpoint yet: `defaults`, DEFAULT_ENABLED_EVENTS), else skipped (no outbox row).
 */
export const deliveryStatusSql = (event: string, defaults: string) =>
  `CASE WHEN ${event}.type = ANY (COALESCE(w.enabled_events, ${defaults}::text[])) THEN 'pending' ELSE 'skipped' END`;

/** The join deliveryStatusSql reads its endpoint from. */
export const endpointOfEventSql = (event: string) =>
  `LEFT JOIN webhook_endpoints w ON w.merchant_id = ${event}.merchant_id AND w.livemode = ${event}.livemode`;

/** Writes events and the delivery state they start in, inside the transaction of the change they announce. */
export class EventWriter {
  constructor(
    private readonly sql: Sql,
    private readonly outbox: OutboxWriter,
  ) {}

  /**
   * An event whose type its endpoint has not enabled (with no endpoint yet: the default,
   * payment.completed only) is recorded `skipped` and gets no outbox row; the others get theirs.
   */
  async record(events: readonly NewEvent[]): Promise<void> {
    if (events.length === 0) return;
    const column = <K extends keyof NewEvent>(key: K) => events.map((event) => event[key]);
    const inserted = await this.sql<{ id: string; delivery_status: DeliveryStatus }>(
      `INSERT INTO events (id, merchant_id, livemode, type, payment_id, refund_id, body, created_at, delivery_status)
       SELECT e.id, e.merchant_id, e.livemode, e.type, e.payment_id, e.refund_id, e.body, e.created_at,
              ${deliveryStatusSql('e', '$8')}
       FROM unnest($1::text[], $2::text[], $3::boolean[], $4::text[], $5::text[], $6::text[], $7::timestamptz[],
                   $9::text[])
              AS e (id, merchant_id, livemode, type, payment_id, body, created_at, refund_id)
       ${endpointOfEventSql('e')}
       RETURNING id, delivery_status`,
      [
        column('id'),
        column('merchantId'),
        column('livemode'),
        column('type'),
        column('paymentId'),
        column('body'),
        column('createdAt'),
        DEFAULT_ENABLED_EVENTS,
        column('refundId'),
      ],
    );
    await this.outbox.enqueue(
      inserted
        .filter((event) => event.delivery_status === 'pending')
        .map((event) => ({ eventId: event.id, retryStep: 0, manual: false })),
    );
  }

  /** One more attempt of an event the scope owns, outside its retries; false when it has no such event. */
  async requestRedelivery(scope: MerchantScope, id: string): Promise<boolean> {
    const found = await this.sql(`SELECT 1 FROM events WHERE id = $1 AND merchant_id = $2 AND livemode = $3`, [
      id,
      scope.merchantId,
      scope.livemode,
    ]);
    if (found.length === 0) return false;
    await this.outbox.enqueue([{ eventId: id, retryStep: 0, manual: true }]);
    return true;
  }

  /**
   * Every failed event of the scope created since `since` becomes pending again under `recoveryId`,
   * with a fresh automatic delivery (the normal path, retries included), in one statement. Ids follow
   * created_at, so the relay publishes oldest first. Returns how many were queued.
   */
  async requeueFailed(scope: MerchantScope, since: Date, recoveryId: string): Promise<number> {
    const template = this.outbox.automaticDeliveryTemplate();
    const [{ queued }] = await this.sql<{ queued: number }>(
      `WITH picked AS (
         UPDATE events SET delivery_status = 'pending', undelivered_reason = NULL, recovery_id = $3
         WHERE merchant_id = $1 AND livemode = $2 AND delivery_status = 'failed' AND created_at >= $4
         RETURNING id, created_at
       ), queued AS (
         INSERT INTO outbox (routing_key, message_type, payload, headers)
         SELECT $5, $6, jsonb_set($7::jsonb, '{eventId}', to_jsonb(id))::text, $8
         FROM picked ORDER BY created_at, id
         RETURNING 1
       )
       SELECT count(*)::int AS queued FROM queued`,
      [
        scope.merchantId,
        scope.livemode,
        recoveryId,
        since,
        template.routingKey,
        template.messageType,
        template.payload,
        // The recover request's id and trace context, as every outbox row carries its cause's.
        template.headers,
      ],
    );
    return queued;
  }
}
