import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  type DeliveryStatus,
  type EndpointDeliveryView,
  type EventType,
  type WebhookAttemptView,
} from '@payhook/contracts';
import { ReadDatabase, sqlRows } from '@payhook/persistence';
import { DataSource } from 'typeorm';
import type { KeysetCursor } from '../../platform/http/keyset-cursor';
import type { MerchantScope } from '@payhook/auth';
import type { EventRecord } from './event.record';

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

/**
 * An event's columns with its delivery status summed up over its deliveries, for
 * `FROM events e ${DELIVERIES_OF_EVENT}`: succeeded when all did, failed when any failed for good,
 * pending otherwise; an event without deliveries has its own (skipped, or no endpoint in its mode).
 */
const EVENT_COLUMNS = `e.id, e.livemode, e.body, e.created_at,
  CASE WHEN d.total = 0 THEN e.delivery_status WHEN d.succeeded = d.total THEN 'succeeded'
       WHEN d.failed > 0 THEN 'failed' ELSE 'pending' END AS delivery_status,
  CASE WHEN d.total = 0 THEN e.undelivered_reason ELSE d.reason END AS undelivered_reason`;

/** The sums EVENT_COLUMNS reads: one probe of the deliveries' primary key per event. */
const DELIVERIES_OF_EVENT = `CROSS JOIN LATERAL (
  SELECT count(*) AS total, count(*) FILTER (WHERE status = 'succeeded') AS succeeded,
         count(*) FILTER (WHERE status = 'failed') AS failed,
         min(undelivered_reason) FILTER (WHERE status = 'failed') AS reason
  FROM webhook_deliveries WHERE event_id = e.id) d`;

const toRecord = (row: EventRow): EventRecord => ({
  id: row.id,
  livemode: row.livemode,
  body: row.body,
  createdAt: row.created_at,
  deliveryStatus: row.delivery_status,
  undeliveredReason: row.undelivered_reason,
});

interface AttemptRow {
  id: string;
  endpoint_id: string | null;
  number: number;
  /** A Date from a column; text (JSON) from DETAILS. */
  started_at: Date | string;
  duration_ms: number;
  response_status: number | null;
  response_body: string | null;
  error: string | null;
}

const ATTEMPT_COLUMNS = `a.id, a.endpoint_id, a.number, a.started_at, a.duration_ms, a.response_status,
  a.response_body, a.error`;

const toAttemptView = (row: AttemptRow): WebhookAttemptView => ({
  id: row.id,
  endpointId: row.endpoint_id,
  number: row.number,
  startedAt: new Date(row.started_at).toISOString(),
  durationMs: row.duration_ms,
  responseStatus: row.response_status,
  responseBody: row.response_body,
  error: row.error,
});

/**
 * An event's deliveries (the oldest endpoint first, deleted ones last) and attempts, beside
 * EVENT_COLUMNS in the same statement: one snapshot, so the summed-up status never disagrees with
 * the deliveries shown with it, nor with the attempts. The statements that read it pick their
 * events in a leading `WITH e AS (…)`, so what they look up stays within the first 1 KiB of the
 * text that pg_stat_activity shows.
 */
const DETAILS = `COALESCE((
    SELECT json_agg(json_build_object('endpointId', dd.endpoint_id, 'status', dd.status,
                                      'undeliveredReason', dd.undelivered_reason)
                    ORDER BY w.created_at NULLS LAST, dd.endpoint_id)
    FROM webhook_deliveries dd LEFT JOIN webhook_endpoints w ON w.id = dd.endpoint_id
    WHERE dd.event_id = e.id), '[]') AS deliveries,
  COALESCE((
    SELECT json_agg(to_json(a) ORDER BY a.number)
    FROM (SELECT ${ATTEMPT_COLUMNS} FROM webhook_attempts a WHERE a.event_id = e.id) a), '[]') AS attempts`;

type DetailedEventRow = EventRow & { deliveries: EndpointDeliveryView[]; attempts: AttemptRow[] };

/** An event as read with its deliveries and attempts. */
export type DetailedEventRecord = EventRecord & { deliveries: EndpointDeliveryView[]; attempts: WebhookAttemptView[] };

const toDetailedRecord = (row: DetailedEventRow): DetailedEventRecord => ({
  ...toRecord(row),
  deliveries: row.deliveries,
  attempts: row.attempts.map(toAttemptView),
});

@Injectable()
export class EventsRepository {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly read: ReadDatabase,
  ) {}

  /** The event with its deliveries and attempts (one statement: see DETAILS). */
  async findById(scope: MerchantScope, id: string): Promise<DetailedEventRecord | null> {
    const rows = await sqlRows<DetailedEventRow>(
      this.db,
      `WITH e AS (SELECT * FROM events e WHERE e.id = $1 AND e.merchant_id = $2 AND e.livemode = $3)
       SELECT ${EVENT_COLUMNS}, ${DETAILS} FROM e ${DELIVERIES_OF_EVENT}`,
      [id, scope.merchantId, scope.livemode],
    );
    return rows[0] ? toDetailedRecord(rows[0]) : null;
  }

  async attempts(eventId: string): Promise<WebhookAttemptView[]> {
    const rows = await sqlRows<AttemptRow>(
      this.db,
      `SELECT ${ATTEMPT_COLUMNS} FROM webhook_attempts a WHERE a.event_id = $1 ORDER BY a.number`,
      [eventId],
    );
    return rows.map(toAttemptView);
  }

  /**
   * The merchant's list, newest first, keyset-paged; one extra row tells hasMore. On the read
   * database: an event may show here a replica's delay after the change that wrote it.
   */
  async list(scope: MerchantScope, filter: EventFilter): Promise<EventRecord[]> {
    const params: unknown[] = [scope.merchantId, scope.livemode];
    const where = ['e.merchant_id = $1', 'e.livemode = $2'];
    const bind = (value: unknown) => `$${params.push(value)}`;
    if (filter.type !== undefined) where.push(`e.type = ${bind(filter.type)}`);
    if (filter.paymentId !== undefined) where.push(`e.payment_id = ${bind(filter.paymentId)}`);
    if (filter.after) {
      where.push(`(e.created_at, e.id) < (${bind(filter.after.createdAt)}, ${bind(filter.after.id)})`);
    }
    const rows = await this.read.rows<EventRow>(
      `SELECT ${EVENT_COLUMNS} FROM events e ${DELIVERIES_OF_EVENT} WHERE ${where.join(' AND ')}
       ORDER BY e.created_at DESC, e.id DESC LIMIT ${bind(filter.limit + 1)}`,
      params,
    );
    return rows.map(toRecord);
  }

  /**
   * A payment's newest events, on the primary: read right after the transition that wrote them
   * (the integration test, the console's payment page), where a replica could still lack them.
   */
  async ofPayment(scope: MerchantScope, paymentId: string, limit: number): Promise<DetailedEventRecord[]> {
    const rows = await sqlRows<DetailedEventRow>(
      this.db,
      `WITH e AS (SELECT * FROM events e WHERE e.merchant_id = $1 AND e.livemode = $2 AND e.payment_id = $3
                  ORDER BY e.created_at DESC, e.id DESC LIMIT $4)
       SELECT ${EVENT_COLUMNS}, ${DETAILS} FROM e ${DELIVERIES_OF_EVENT}
       ORDER BY e.created_at DESC, e.id DESC`,
      [scope.merchantId, scope.livemode, paymentId, limit],
    );
    return rows.map(toDetailedRecord);
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
}
