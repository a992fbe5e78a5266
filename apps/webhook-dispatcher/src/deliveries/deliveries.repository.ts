import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { newId, type DeliveryStatus } from '@payhook/contracts';
import { sqlRows } from '@payhook/persistence';
import { DataSource } from 'typeorm';

/** The reason an event shows when its endpoint was disabled (DESIGN.md §8). */
export const ENDPOINT_DISABLED = 'endpoint_disabled';

/** The endpoint of one merchant and mode, as its health stands now. */
export interface EndpointState {
  key: EndpointKey;
  url: string;
  signingSecret: string;
  status: 'enabled' | 'disabled';
  consecutiveFailures: number;
}

export interface EndpointKey {
  merchantId: string;
  livemode: boolean;
}

/** What one attempt needs, read in one query: the fixed body and the endpoint as it is now. */
export interface DeliveryTarget {
  eventId: string;
  body: string;
  deliveryStatus: DeliveryStatus;
  /** Null when the merchant has not set an endpoint for the event's mode. */
  endpoint: EndpointState | null;
  /** `merchant:mode`, the unit of isolation. */
  endpointKey: string;
}

export interface AttemptRecord {
  eventId: string;
  url: string;
  startedAt: Date;
  durationMs: number;
  responseStatus: number | null;
  responseBody: string | null;
  error: string | null;
  /** The delivery status after this attempt; null keeps the current one. */
  deliveryStatus: DeliveryStatus | null;
  /** Automatic attempts count toward the endpoint's health; manual redeliveries do not. */
  countsForHealth: boolean;
  /** For a failed attempt whose retry waits in the endpoint's lane: when it is due, and its step. */
  laneRetry: { dueAt: Date; retryStep: number } | null;
}

export interface RecordedAttempt {
  number: number;
  /** True when this attempt disabled the endpoint (it had failed for WEBHOOK_DISABLE_AFTER). */
  disabledEndpoint: boolean;
}

export const endpointKeyOf = (key: EndpointKey) => `${key.merchantId}:${key.livemode ? 'live' : 'test'}`;

interface TargetRow {
  id: string;
  body: string;
  delivery_status: DeliveryStatus;
  merchant_id: string;
  livemode: boolean;
  url: string | null;
  signing_secret: string | null;
  status: 'enabled' | 'disabled' | null;
  consecutive_failures: number | null;
}

@Injectable()
export class DeliveriesRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async findTarget(eventId: string): Promise<DeliveryTarget | null> {
    const rows = await sqlRows<TargetRow>(
      this.db,
      `SELECT e.id, e.body, e.delivery_status, e.merchant_id, e.livemode, w.url, w.signing_secret,
              w.status, w.consecutive_failures
       FROM events e
       LEFT JOIN webhook_endpoints w ON w.merchant_id = e.merchant_id AND w.livemode = e.livemode
       WHERE e.id = $1`,
      [eventId],
      'dispatcher-find-target',
    );
    const [row] = rows;
    if (!row) return null;
    const key = { merchantId: row.merchant_id, livemode: row.livemode };
    return {
      eventId: row.id,
      body: row.body,
      deliveryStatus: row.delivery_status,
      endpoint:
        row.url && row.signing_secret
          ? {
              key,
              url: row.url,
              signingSecret: row.signing_secret,
              status: row.status ?? 'enabled',
              consecutiveFailures: row.consecutive_failures ?? 0,
            }
          : null,
      endpointKey: endpointKeyOf(key),
    };
  }

  /**
   * Numbers and records the attempt, sets the event's delivery status (a succeeded event stays
   * succeeded) and, for an automatic attempt, the endpoint's health, in one statement. After
   * WEBHOOK_DISABLE_AFTER of failures since `failing_since`, a failed attempt disables the endpoint.
   */
  async recordAttempt(attempt: AttemptRecord, disableAfterMs: number): Promise<RecordedAttempt> {
    const failed = attempt.responseStatus === null || attempt.error !== null;
    const rows = await sqlRows<{ number: number; disabled: boolean | null }>(
      this.db,
      `WITH event AS (
         UPDATE events SET attempt_count = attempt_count + 1, last_attempt_at = $3, undelivered_reason = NULL,
           delivery_status = CASE WHEN delivery_status = 'succeeded' THEN 'succeeded' ELSE COALESCE($9, delivery_status) END,
           lane_due_at = $12, lane_retry_step = $13
         WHERE id = $2
         RETURNING attempt_count, merchant_id, livemode
       ), attempt AS (
         INSERT INTO webhook_attempts
           (id, event_id, number, url, started_at, duration_ms, response_status, response_body, error)
         SELECT $1, $2, attempt_count, $4, $3, $5, $6, $7, $8 FROM event
         RETURNING number
       ), health AS (
         UPDATE webhook_endpoints w SET
           consecutive_failures = CASE WHEN $10 THEN w.consecutive_failures + 1 ELSE 0 END,
           failing_since = CASE WHEN $10 THEN COALESCE(w.failing_since, $3) END,
           last_error = CASE WHEN $10 THEN $8 ELSE w.last_error END,
           status = CASE WHEN $10 AND now() - COALESCE(w.failing_since, $3) >= make_interval(secs => $11 / 1000.0)
                    THEN 'disabled' ELSE w.status END,
           disabled_at = CASE WHEN $10 AND w.status = 'enabled'
                           AND now() - COALESCE(w.failing_since, $3) >= make_interval(secs => $11 / 1000.0)
                         THEN now() ELSE w.disabled_at END
         FROM event
         WHERE $14 AND w.merchant_id = event.merchant_id AND w.livemode = event.livemode
           -- A success on a healthy endpoint writes nothing: no hot row for a busy merchant.
           AND ($10 OR w.consecutive_failures > 0 OR w.failing_since IS NOT NULL)
         RETURNING w.status = 'disabled' AND w.disabled_at = now() AS disabled
       )
       SELECT attempt.number, (SELECT disabled FROM health) AS disabled FROM attempt`,
      [
        newId('attempt'),
        attempt.eventId,
        attempt.startedAt,
        attempt.url,
        attempt.durationMs,
        attempt.responseStatus,
        attempt.responseBody,
        attempt.error,
        attempt.deliveryStatus,
        failed,
        disableAfterMs,
        attempt.laneRetry?.dueAt ?? null,
        attempt.laneRetry?.retryStep ?? null,
        attempt.countsForHealth,
      ],
      'dispatcher-record-attempt',
    );
    return { number: rows[0]?.number ?? 0, disabledEndpoint: rows[0]?.disabled === true };
  }

  /** Nothing could be sent (no endpoint, or a disabled one): the event says why and leaves the lane. */
  async markUndelivered(eventId: string, reason: string): Promise<void> {
    await sqlRows(
      this.db,
      `UPDATE events SET undelivered_reason = $2, lane_due_at = NULL, lane_retry_step = NULL,
         delivery_status = CASE WHEN delivery_status = 'succeeded' THEN 'succeeded' ELSE 'failed' END
       WHERE id = $1`,
      [eventId, reason],
    );
  }

  /** The endpoint was just disabled: everything still owed to it is kept as failed, without an attempt. */
  async failLane(key: EndpointKey): Promise<void> {
    await sqlRows(
      this.db,
      `UPDATE events SET undelivered_reason = $3, lane_due_at = NULL, lane_retry_step = NULL,
         delivery_status = CASE WHEN delivery_status = 'succeeded' THEN 'succeeded' ELSE 'failed' END
       WHERE merchant_id = $1 AND livemode = $2 AND lane_due_at IS NOT NULL`,
      [key.merchantId, key.livemode, ENDPOINT_DISABLED],
    );
  }

  /**
   * Moves an event into its endpoint's lane (Postgres), due at `dueAt` with its retry step; the
   * broker message can be acknowledged once it resolves. A lane worker finds it by the lane index.
   */
  async park(eventId: string, retryStep: number, dueAt: Date): Promise<void> {
    await sqlRows(
      this.db,
      `UPDATE events SET lane_due_at = $3, lane_retry_step = $2 WHERE id = $1 AND delivery_status <> 'succeeded'`,
      [eventId, retryStep, dueAt],
      'dispatcher-park',
    );
  }
}
