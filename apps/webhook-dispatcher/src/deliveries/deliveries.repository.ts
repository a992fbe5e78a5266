import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { newId, type DeliveryStatus } from '@payhook/contracts';
import { sqlRows } from '@payhook/persistence';
import { DataSource } from 'typeorm';

/** What one attempt needs, read in one query: the fixed body and the endpoint as it is now. */
export interface DeliveryTarget {
  eventId: string;
  body: string;
  deliveryStatus: DeliveryStatus;
  /** Null when the merchant has not set an endpoint for the event's mode. */
  url: string | null;
  signingSecret: string | null;
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
}

@Injectable()
export class DeliveriesRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async findTarget(eventId: string): Promise<DeliveryTarget | null> {
    const rows = await sqlRows<{
      id: string;
      body: string;
      delivery_status: DeliveryStatus;
      merchant_id: string;
      livemode: boolean;
      url: string | null;
      signing_secret: string | null;
    }>(
      this.db,
      `SELECT e.id, e.body, e.delivery_status, e.merchant_id, e.livemode, w.url, w.signing_secret
       FROM events e
       LEFT JOIN webhook_endpoints w ON w.merchant_id = e.merchant_id AND w.livemode = e.livemode
       WHERE e.id = $1`,
      [eventId],
    );
    const [row] = rows;
    if (!row) return null;
    return {
      eventId: row.id,
      body: row.body,
      deliveryStatus: row.delivery_status,
      url: row.url,
      signingSecret: row.signing_secret,
      endpointKey: `${row.merchant_id}:${row.livemode ? 'live' : 'test'}`,
    };
  }

  /**
   * Numbers and records the attempt and sets the event's delivery status in one statement; the
   * event row's lock orders concurrent attempts of one event. A succeeded event stays succeeded.
   */
  async recordAttempt(attempt: AttemptRecord): Promise<number> {
    const rows = await sqlRows<{ number: number }>(
      this.db,
      `WITH event AS (
         UPDATE events SET attempt_count = attempt_count + 1, last_attempt_at = $3, undelivered_reason = NULL,
           delivery_status = CASE WHEN delivery_status = 'succeeded' THEN 'succeeded' ELSE COALESCE($9, delivery_status) END
         WHERE id = $2
         RETURNING attempt_count
       )
       INSERT INTO webhook_attempts
         (id, event_id, number, url, started_at, duration_ms, response_status, response_body, error)
       SELECT $1, $2, attempt_count, $4, $3, $5, $6, $7, $8 FROM event
       RETURNING number`,
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
      ],
    );
    return rows[0]?.number ?? 0;
  }

  /** Nothing could be sent (no endpoint): the event says why and waits for a redelivery. */
  async markUndelivered(eventId: string, reason: string): Promise<void> {
    await sqlRows(
      this.db,
      `UPDATE events SET undelivered_reason = $2,
         delivery_status = CASE WHEN delivery_status = 'succeeded' THEN 'succeeded' ELSE 'failed' END
       WHERE id = $1`,
      [eventId, reason],
    );
  }
}
