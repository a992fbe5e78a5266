import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  DEFAULT_ENABLED_EVENTS,
  WEBHOOK_DELIVERY_REQUESTED_V1,
  newId,
  type DeliveryStatus,
  type EventType,
  type WebhookAttemptView,
} from '@payhook/contracts';
import { WEBHOOK_DELIVER_ROUTING_KEY } from '@payhook/messaging';
import { ReadDatabase, inTransaction, sqlRows, type Sql } from '@payhook/persistence';
import { DataSource } from 'typeorm';
import type { KeysetCursor } from '../http/keyset-cursor';
import { enqueueDeliveries, enqueueDelivery } from '../outbox/outbox.repository';
import type { MerchantScope } from '../payments/payment.record';
import type { EventRecord } from './event.record';
import { outgoingMessageHeaders } from '@payhook/observability';

export interface NewEvent {
  id: string;
  merchantId: string;
  livemode: boolean;
  type: EventType;
  paymentId: string;
  body: string;
  createdAt: Date;
}

export interface EventFilter {
  type?: EventType;
  paymentId?: string;
  after?: KeysetCursor;
  limit: number;
}

interface EventRow {
  id: string;
  livemode: boolean;
  body: string;
  created_at: Date;
  delivery_status: DeliveryStatus;
  undelivered_reason: string | null;
}

const EVENT_COLUMNS = 'id, livemode, body, created_at, delivery_status, undelivered_reason';

const toRecord = (row: EventRow): EventRecord => ({
  id: row.id,
  livemode: row.livemode,
  body: row.body,
  createdAt: row.created_at,
  deliveryStatus: row.delivery_status,
  undeliveredReason: row.undelivered_reason,
});

@Injectable()
export class EventsRepository {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly read: ReadDatabase,
  ) {}

  /**
   * Inside the transaction of the changes the events announce. An event whose type its endpoint has
   * not enabled (with no endpoint yet: the default, payment.completed only) is recorded `skipped`
   * and gets no outbox row; the others get theirs.
   */
  static async insertWithDelivery(sql: Sql, events: NewEvent[]): Promise<void> {
    if (events.length === 0) return;
    const column = <K extends keyof NewEvent>(key: K) => events.map((event) => event[key]);
    const inserted = await sql<{ id: string; delivery_status: DeliveryStatus }>(
      `INSERT INTO events (id, merchant_id, livemode, type, payment_id, body, created_at, delivery_status)
       SELECT e.id, e.merchant_id, e.livemode, e.type, e.payment_id, e.body, e.created_at,
              CASE WHEN e.type = ANY (COALESCE(w.enabled_events, $8::text[])) THEN 'pending' ELSE 'skipped' END
       FROM unnest($1::text[], $2::text[], $3::boolean[], $4::text[], $5::text[], $6::text[], $7::timestamptz[])
              AS e (id, merchant_id, livemode, type, payment_id, body, created_at)
       LEFT JOIN webhook_endpoints w ON w.merchant_id = e.merchant_id AND w.livemode = e.livemode
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
      ],
    );
    await enqueueDeliveries(
      sql,
      inserted
        .filter((event) => event.delivery_status === 'pending')
        .map((event) => ({ eventId: event.id, retryStep: 0, manual: false })),
    );
  }

  async findById(scope: MerchantScope, id: string): Promise<EventRecord | null> {
    const rows = await sqlRows<EventRow>(
      this.db,
      `SELECT ${EVENT_COLUMNS} FROM events WHERE id = $1 AND merchant_id = $2 AND livemode = $3`,
      [id, scope.merchantId, scope.livemode],
    );
    return rows[0] ? toRecord(rows[0]) : null;
  }

  async attempts(eventId: string): Promise<WebhookAttemptView[]> {
    const rows = await sqlRows<{
      id: string;
      number: number;
      started_at: Date;
      duration_ms: number;
      response_status: number | null;
      response_body: string | null;
      error: string | null;
    }>(
      this.db,
      `SELECT id, number, started_at, duration_ms, response_status, response_body, error
       FROM webhook_attempts WHERE event_id = $1 ORDER BY number`,
      [eventId],
    );
    return rows.map((row) => ({
      id: row.id,
      number: row.number,
      startedAt: row.started_at.toISOString(),
      durationMs: row.duration_ms,
      responseStatus: row.response_status,
      responseBody: row.response_body,
      error: row.error,
    }));
  }

  /**
   * The merchant's list, newest first, keyset-paged; one extra row tells hasMore. On the read
   * database: an event may show here a replica's delay after the change that wrote it.
   */
  async list(scope: MerchantScope, filter: EventFilter): Promise<EventRecord[]> {
    const params: unknown[] = [scope.merchantId, scope.livemode];
    const where = ['merchant_id = $1', 'livemode = $2'];
    const bind = (value: unknown) => `$${params.push(value)}`;
    if (filter.type !== undefined) where.push(`type = ${bind(filter.type)}`);
    if (filter.paymentId !== undefined) where.push(`payment_id = ${bind(filter.paymentId)}`);
    if (filter.after) where.push(`(created_at, id) < (${bind(filter.after.createdAt)}, ${bind(filter.after.id)})`);
    const rows = await this.read.rows<EventRow>(
      `SELECT ${EVENT_COLUMNS} FROM events WHERE ${where.join(' AND ')}
       ORDER BY created_at DESC, id DESC LIMIT ${bind(filter.limit + 1)}`,
      params,
    );
    return rows.map(toRecord);
  }

  /**
   * A payment's newest events, on the primary: read right after the transition that wrote them
   * (the integration test, the console's payment page), where a replica could still lack them.
   */
  async ofPayment(scope: MerchantScope, paymentId: string, limit: number): Promise<EventRecord[]> {
    const rows = await sqlRows<EventRow>(
      this.db,
      `SELECT ${EVENT_COLUMNS} FROM events WHERE merchant_id = $1 AND livemode = $2 AND payment_id = $3
       ORDER BY created_at DESC, id DESC LIMIT $4`,
      [scope.merchantId, scope.livemode, paymentId, limit],
    );
    return rows.map(toRecord);
  }

  /** On the primary, like PaymentsRepository.existsAt. */
  async existsAt(scope: MerchantScope, position: KeysetCursor): Promise<boolean> {
    const rows = await sqlRows(
      this.db,
      `SELECT 1 FROM events WHERE id = $1 AND merchant_id = $2 AND livemode = $3 AND created_at = $4`,
      [position.id, scope.merchantId, scope.livemode, position.createdAt],
    );
    return rows.length === 1;
  }

  /** Queues one more attempt of the same event; false when the caller has no such event. */
  async requestRedelivery(scope: MerchantScope, id: string): Promise<boolean> {
    return inTransaction(this.db, async (sql) => {
      const found = await sql(`SELECT 1 FROM events WHERE id = $1 AND merchant_id = $2 AND livemode = $3`, [
        id,
        scope.merchantId,
        scope.livemode,
      ]);
      if (found.length === 0) return false;
      await enqueueDelivery(sql, { eventId: id, retryStep: 0, manual: true });
      return true;
    });
  }

  /**
   * Queues every failed event of the scope created since `since` again, oldest first, as a fresh
   * automatic delivery (the normal path, retries included). Null when the scope's previous recover
   * still has events pending: one runs at a time per merchant and mode.
   */
  async recover(scope: MerchantScope, since: Date): Promise<{ queued: number } | null> {
    return inTransaction(this.db, async (sql) => {
      // Serialises recovers of one merchant and mode; no other merchant ever waits on it.
      await sql(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [
        `recover:${scope.merchantId}:${scope.livemode}`,
      ]);
      const running = await sql(
        `SELECT 1 FROM (SELECT id FROM event_recoveries WHERE merchant_id = $1 AND livemode = $2
                        ORDER BY created_at DESC LIMIT 1) latest
         WHERE EXISTS (SELECT 1 FROM events WHERE recovery_id = latest.id AND delivery_status = 'pending')`,
        [scope.merchantId, scope.livemode],
      );
      if (running.length > 0) return null;
      const recoveryId = newId('recovery');
      // The outbox payload is a webhook.delivery-requested.v1 message (libs/contracts), built here
      // for every picked event at once; ids follow created_at, so the relay publishes oldest first.
      const [{ queued }] = await sql<{ queued: number }>(
        `WITH picked AS (
           UPDATE events SET delivery_status = 'pending', undelivered_reason = NULL, recovery_id = $3
           WHERE merchant_id = $1 AND livemode = $2 AND delivery_status = 'failed' AND created_at >= $4
           RETURNING id, created_at
         ), queued AS (
           INSERT INTO outbox (routing_key, message_type, payload, headers)
           SELECT $5, $6, json_build_object('type', $6::text, 'eventId', id, 'retryStep', 0, 'manual', false,
                                            'requestedAt', to_json(now()))::text, $7
           FROM picked ORDER BY created_at, id
           RETURNING 1
         )
         SELECT count(*)::int AS queued FROM queued`,
        [
          scope.merchantId,
          scope.livemode,
          recoveryId,
          since,
          WEBHOOK_DELIVER_ROUTING_KEY,
          WEBHOOK_DELIVERY_REQUESTED_V1,
          // The recover request's id and trace context, as every outbox row carries its cause's.
          outgoingMessageHeaders(),
        ],
      );
      await sql(`INSERT INTO event_recoveries (id, merchant_id, livemode, since, queued) VALUES ($1, $2, $3, $4, $5)`, [
        recoveryId,
        scope.merchantId,
        scope.livemode,
        since,
        queued,
      ]);
      return { queued };
    });
  }

  /** Deletes up to `batchSize` attempts older than `olderThanMs`, oldest first (webhook_attempts_started_idx). */
  async purgeAttempts(olderThanMs: number, batchSize: number): Promise<number> {
    const rows = await sqlRows(
      this.db,
      `DELETE FROM webhook_attempts WHERE id = ANY (ARRAY(
         SELECT id FROM webhook_attempts WHERE started_at < now() - make_interval(secs => $1 / 1000.0)
         ORDER BY started_at LIMIT $2))
       RETURNING 1`,
      [olderThanMs, batchSize],
    );
    return rows.length;
  }
}
