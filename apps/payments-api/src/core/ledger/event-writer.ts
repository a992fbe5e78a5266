import { DEFAULT_ENABLED_EVENTS, newId, type EventType, type PaymentEvent, type RefundEvent } from '@payhook/contracts';
import type { MerchantScope } from '@payhook/auth';
import type { Sql } from '@payhook/persistence';
import type { OutboxWriter } from './outbox-writer';
import type { PaymentOutcome } from './moves-table';
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
 * The webhook body announcing that `payment` left `pending` for `outcome` at `at`.
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
 * The webhook body announcing that `refund` ended: refund.succeeded at its
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

/** Why an event of a mode without any endpoint was not sent: kept, redelivered once one is set. */
export const NO_ENDPOINT_REASON = 'No webhook endpoint is set for this mode; set one and redeliver the event.';

/**
 * The endpoints of an event's mode as its delivery state needs them, for a statement that selects
 * `event` (type, merchant_id, livemode): `endpoints.taken` (some endpoint takes the type) and
 * `endpoints.any`. A bounded read: a mode has at most 16 endpoints (webhook_endpoints_scope_idx).
 */
export const endpointsOfEventSql = (event: string) =>
  `CROSS JOIN LATERAL (SELECT bool_or(${event}.type = ANY (w.enabled_events)) AS taken, count(*) > 0 AS any
                      FROM webhook_endpoints w
                      WHERE w.merchant_id = ${event}.merchant_id AND w.livemode = ${event}.livemode) endpoints`;

/**
 * The event's own delivery_status and undelivered_reason as it is inserted (after endpointsOfEventSql).
 * An event that some endpoint takes has its state in its deliveries (this says pending); one that none
 * takes is skipped; in a mode with no endpoint at all, a type of `defaults` (DEFAULT_ENABLED_EVENTS,
 * what a new endpoint takes) fails at once with NO_ENDPOINT_REASON, any other is skipped.
 */
export const initialDeliverySql = (event: string, defaults: string, reason: string) =>
  `CASE WHEN endpoints.taken THEN 'pending'
        WHEN endpoints.any OR NOT ${event}.type = ANY (${defaults}::text[]) THEN 'skipped' ELSE 'failed' END,
   CASE WHEN NOT endpoints.any AND ${event}.type = ANY (${defaults}::text[]) THEN ${reason} END`;

/**
 * The fan-out: for events just inserted (`inserted`: id, type, merchant_id, livemode,
 * created_at), one pending delivery per endpoint of the mode that takes the type, and only those: an
 * endpoint that does not take it costs no row. Returns the (event_id, endpoint_id) of each.
 */
export const fanOutSql = (inserted: string) =>
  `INSERT INTO webhook_deliveries (event_id, endpoint_id, merchant_id, livemode, status, created_at)
   SELECT ev.id, w.id, ev.merchant_id, ev.livemode, 'pending', ev.created_at
   FROM ${inserted} ev
   JOIN webhook_endpoints w ON w.merchant_id = ev.merchant_id AND w.livemode = ev.livemode
                            AND ev.type = ANY (w.enabled_events)
   RETURNING event_id, endpoint_id`;

/** One forwarding of an event by a listen session, as the CLI reported it. */
export interface ListenAttempt {
  id: string;
  eventId: string;
  sessionId: string;
  /** Where the CLI forwarded it, for the attempt's record. */
  url: string;
  startedAt: Date;
  durationMs: number;
  responseStatus: number | null;
  responseBody: string | null;
  error: string | null;
}

/** A listen session's attempt as recorded: the one just written, or the one an earlier report wrote. */
export interface RecordedListenAttempt {
  id: string;
  number: number;
  startedAt: Date;
  durationMs: number;
  responseStatus: number | null;
  responseBody: string | null;
  error: string | null;
}

interface ListenAttemptRow {
  id: string;
  number: number;
  started_at: Date;
  duration_ms: number;
  response_status: number | null;
  response_body: string | null;
  error: string | null;
}

/** Writes events and the deliveries they owe, inside the transaction of the change they announce. */
export class EventWriter {
  constructor(
    private readonly sql: Sql,
    private readonly outbox: OutboxWriter,
  ) {}

  /**
   * Each event gets a delivery (and its outbox row) per endpoint of its mode that takes its type; an
   * event that no endpoint takes is recorded without one (initialDeliverySql says why).
   */
  async record(events: readonly NewEvent[]): Promise<void> {
    if (events.length === 0) return;
    const column = <K extends keyof NewEvent>(key: K) => events.map((event) => event[key]);
    const deliveries = await this.sql<{ event_id: string; endpoint_id: string }>(
      `WITH inserted AS (
         INSERT INTO events (id, merchant_id, livemode, type, payment_id, refund_id, body, created_at, delivery_status,
                             undelivered_reason)
         SELECT e.id, e.merchant_id, e.livemode, e.type, e.payment_id, e.refund_id, e.body, e.created_at,
                ${initialDeliverySql('e', '$8', '$10')}
         FROM unnest($1::text[], $2::text[], $3::boolean[], $4::text[], $5::text[], $6::text[], $7::timestamptz[],
                     $9::text[])
                AS e (id, merchant_id, livemode, type, payment_id, body, created_at, refund_id)
         ${endpointsOfEventSql('e')}
         RETURNING id, type, merchant_id, livemode, created_at
       )
       ${fanOutSql('inserted')}`,
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
        NO_ENDPOINT_REASON,
      ],
    );
    await this.outbox.enqueue(
      deliveries.map((delivery) => ({
        eventId: delivery.event_id,
        endpointId: delivery.endpoint_id,
        retryStep: 0,
        manual: false,
      })),
    );
  }

  /**
   * One more attempt of an event the scope owns, outside its retries: to `endpointId`, or else to
   * every endpoint of its mode that takes its type (the oldest one when none does: a skipped event).
   * Null when the scope has no such event; 'endpoint_not_found' when it has no such endpoint. An event
   * of a mode without any endpoint is queued for nothing: it keeps saying why (NO_ENDPOINT_REASON).
   */
  async requestRedelivery(
    scope: MerchantScope,
    id: string,
    endpointId: string | null,
  ): Promise<'queued' | 'event_not_found' | 'endpoint_not_found'> {
    const rows = await this.sql<{ event: boolean; endpoint_id: string | null; takes_type: boolean | null }>(
      `SELECT true AS event, w.id AS endpoint_id, e.type = ANY (w.enabled_events) AS takes_type
       FROM events e
       LEFT JOIN webhook_endpoints w ON w.merchant_id = e.merchant_id AND w.livemode = e.livemode
                                    AND ($4::text IS NULL OR w.id = $4)
       WHERE e.id = $1 AND e.merchant_id = $2 AND e.livemode = $3
       ORDER BY w.created_at, w.id`,
      [id, scope.merchantId, scope.livemode, endpointId],
    );
    if (rows.length === 0) return 'event_not_found';
    const endpoints = rows.filter((row) => row.endpoint_id !== null);
    if (endpointId !== null && endpoints.length === 0) return 'endpoint_not_found';
    const taking = endpoints.filter((row) => row.takes_type);
    const targets = endpointId !== null || taking.length === 0 ? endpoints.slice(0, 1) : taking;
    await this.outbox.enqueue(
      targets.map((row) => ({ eventId: id, endpointId: row.endpoint_id!, retryStep: 0, manual: true })),
    );
    return 'queued';
  }

  /**
   * An attempt a `payhook listen` session reports: numbered with the
   * event's other attempts (the event's attempt_count, as the dispatcher numbers them), with the
   * session's id as its endpoint. It changes no delivery, status or endpoint health. Only for an event
   * the session was sent (a type it takes, recorded since it began), and once per event and session: a
   * repeated report answers with the attempt already recorded.
   */
  async recordListenAttempt(
    scope: MerchantScope,
    attempt: ListenAttempt,
    session: { enabledEvents: EventType[] | null; createdAt: Date },
  ): Promise<RecordedListenAttempt | 'event_not_found' | 'not_sent_to_session'> {
    // The event's row lock orders two reports of one event, so the second sees the first's attempt.
    const [event] = await this.sql<{ sent: boolean }>(
      `SELECT (($4::text[] IS NULL OR type = ANY ($4::text[])) AND recorded_at >= $5) IS TRUE AS sent
       FROM events WHERE id = $1 AND merchant_id = $2 AND livemode = $3 FOR UPDATE`,
      [attempt.eventId, scope.merchantId, scope.livemode, session.enabledEvents, session.createdAt],
    );
    if (!event) return 'event_not_found';
    if (!event.sent) return 'not_sent_to_session';
    const [existing] = await this.sql<ListenAttemptRow>(
      `SELECT id, number, started_at, duration_ms, response_status, response_body, error
       FROM webhook_attempts WHERE event_id = $1 AND endpoint_id = $2 ORDER BY number LIMIT 1`,
      [attempt.eventId, attempt.sessionId],
    );
    if (existing) {
      return {
        id: existing.id,
        number: existing.number,
        startedAt: existing.started_at,
        durationMs: existing.duration_ms,
        responseStatus: existing.response_status,
        responseBody: existing.response_body,
        error: existing.error,
      };
    }
    const rows = await this.sql<{ number: number }>(
      `WITH event AS (
         UPDATE events SET attempt_count = attempt_count + 1, last_attempt_at = $5
         WHERE id = $1 AND merchant_id = $2 AND livemode = $3
         RETURNING id, attempt_count
       )
       INSERT INTO webhook_attempts
         (id, event_id, endpoint_id, number, url, started_at, duration_ms, response_status, response_body, error)
       SELECT $4, event.id, $6, event.attempt_count, $7, $5, $8, $9, $10, $11 FROM event
       RETURNING number`,
      [
        attempt.eventId,
        scope.merchantId,
        scope.livemode,
        attempt.id,
        attempt.startedAt,
        attempt.sessionId,
        attempt.url,
        attempt.durationMs,
        attempt.responseStatus,
        attempt.responseBody,
        attempt.error,
      ],
    );
    const { id, startedAt, durationMs, responseStatus, responseBody, error } = attempt;
    return { id, number: rows[0].number, startedAt, durationMs, responseStatus, responseBody, error };
  }

  /**
   * Every failed delivery of the scope (to `endpointId` only, when given) of an event created since
   * `since` becomes pending again under `recoveryId`, with a fresh automatic delivery (the normal path,
   * retries included); so does every failed event that had no endpoint to go to, now to each endpoint
   * that takes its type. One statement; ids follow created_at, so the relay publishes oldest first.
   * Returns how many deliveries were queued.
   */
  async requeueFailed(
    scope: MerchantScope,
    since: Date,
    recoveryId: string,
    endpointId: string | null,
  ): Promise<number> {
    const template = this.outbox.automaticDeliveryTemplate();
    const [{ queued }] = await this.sql<{ queued: number }>(
      `WITH endpoint AS (
         SELECT id, enabled_events FROM webhook_endpoints
         WHERE merchant_id = $1 AND livemode = $2 AND ($9::text IS NULL OR id = $9)
       ), retried AS (
         UPDATE webhook_deliveries d SET status = 'pending', undelivered_reason = NULL, recovery_id = $3
         WHERE d.merchant_id = $1 AND d.livemode = $2 AND d.status = 'failed' AND d.created_at >= $4
           AND d.endpoint_id IN (SELECT id FROM endpoint)
         RETURNING d.event_id, d.endpoint_id, d.created_at
       ), unsent AS (
         -- Failed without a delivery: the mode had no endpoint then.
         INSERT INTO webhook_deliveries (event_id, endpoint_id, merchant_id, livemode, status, recovery_id, created_at)
         SELECT e.id, w.id, e.merchant_id, e.livemode, 'pending', $3, e.created_at
         FROM events e JOIN endpoint w ON e.type = ANY (w.enabled_events)
         WHERE e.merchant_id = $1 AND e.livemode = $2 AND e.delivery_status = 'failed' AND e.created_at >= $4
           AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id)
         -- A manual redelivery may have written one meanwhile: that one stands.
         ON CONFLICT (event_id, endpoint_id) DO NOTHING
         RETURNING event_id, endpoint_id, created_at
       ), queued AS (
         INSERT INTO outbox (routing_key, message_type, payload, headers)
         SELECT $5, $6, jsonb_set(jsonb_set($7::jsonb, '{eventId}', to_jsonb(event_id)), '{endpointId}',
                                  to_jsonb(endpoint_id))::text, $8
         FROM (SELECT * FROM retried UNION ALL SELECT * FROM unsent) picked ORDER BY created_at, event_id, endpoint_id
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
        endpointId,
      ],
    );
    return queued;
  }
}
