import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { sqlRows } from '@payhook/persistence';
import { DataSource } from 'typeorm';
import { ENDPOINT_DELETED } from './deliveries.repository';

/**
 * The changes of delivery state that payments-api asks for through its outbox: the dispatcher alone
 * changes webhook_deliveries once they exist. Each is one statement, and doing it twice (a message
 * delivered again after a crash before its ack, or the sweep beside it) changes nothing more.
 */
@Injectable()
export class DeliveryStateRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Carries out a recover once (event_recoveries.applied_at), from its row alone: the message and the
   * sweep both come here. Every failed delivery of the scope (to the row's endpoint, when named) of an
   * event created since `since` becomes pending again under the recovery, and every failed event that
   * had no endpoint then gets a pending delivery to each endpoint that takes its type. They wait in
   * their endpoints' lanes, due now in the order of their events (oldest first, a microsecond apart),
   * as fresh automatic deliveries (step 0, retries included), with the recover request's correlation.
   * Null when the recovery was carried out already (or is unknown); else how many deliveries it queued.
   */
  async applyRecovery(recoveryId: string): Promise<number | null> {
    const [row] = await sqlRows<{ applied: boolean; queued: number }>(
      this.db,
      `WITH recovery AS (
         UPDATE event_recoveries SET applied_at = now()
         WHERE id = $1 AND applied_at IS NULL
         RETURNING id, merchant_id, livemode, since, endpoint_id, COALESCE(headers, '{}') AS headers
       ), endpoint AS (
         SELECT w.id, w.enabled_events FROM webhook_endpoints w JOIN recovery r
           ON w.merchant_id = r.merchant_id AND w.livemode = r.livemode AND (r.endpoint_id IS NULL OR w.id = r.endpoint_id)
       ), picked AS (
         SELECT d.event_id, d.endpoint_id, d.created_at, false AS unsent FROM webhook_deliveries d JOIN recovery r
           ON d.merchant_id = r.merchant_id AND d.livemode = r.livemode AND d.status = 'failed' AND d.created_at >= r.since
         WHERE d.endpoint_id IN (SELECT id FROM endpoint)
         UNION ALL
         -- Failed without a delivery: the mode had no endpoint then.
         SELECT e.id, w.id, e.created_at, true FROM events e JOIN recovery r
           ON e.merchant_id = r.merchant_id AND e.livemode = r.livemode AND e.delivery_status = 'failed'
              AND e.created_at >= r.since
         JOIN endpoint w ON e.type = ANY (w.enabled_events)
         WHERE NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id)
       ), due AS (
         SELECT *, now() + make_interval(secs => row_number() OVER (ORDER BY created_at, event_id, endpoint_id)
                                                  / 1000000.0) AS due_at
         FROM picked
       ), retried AS (
         UPDATE webhook_deliveries d SET status = 'pending', undelivered_reason = NULL, recovery_id = $1,
           lane_due_at = due.due_at, lane_retry_step = 0, lane_headers = (SELECT headers FROM recovery)
         FROM due
         WHERE NOT due.unsent AND d.event_id = due.event_id AND d.endpoint_id = due.endpoint_id AND d.status = 'failed'
         RETURNING 1
       ), unsent AS (
         INSERT INTO webhook_deliveries (event_id, endpoint_id, merchant_id, livemode, status, recovery_id, created_at,
                                         lane_due_at, lane_retry_step, lane_headers)
         SELECT due.event_id, due.endpoint_id, r.merchant_id, r.livemode, 'pending', $1, due.created_at, due.due_at, 0,
                r.headers
         FROM due, recovery r WHERE due.unsent
         -- A manual redelivery may have written one meanwhile: that one stands.
         ON CONFLICT (event_id, endpoint_id) DO NOTHING
         RETURNING 1
       )
       SELECT EXISTS (SELECT 1 FROM recovery) AS applied,
              ((SELECT count(*) FROM retried) + (SELECT count(*) FROM unsent))::int AS queued`,
      [recoveryId],
    );
    return row.applied ? row.queued : null;
  }

  /**
   * Recoveries recorded more than `graceMs` ago and not yet carried out (their message lost, or not
   * yet handled), oldest first.
   */
  async unappliedRecoveries(graceMs: number, limit: number): Promise<string[]> {
    const rows = await sqlRows<{ id: string }>(
      this.db,
      `SELECT id FROM event_recoveries
       WHERE applied_at IS NULL AND created_at < now() - make_interval(secs => $1 / 1000.0)
       ORDER BY created_at LIMIT $2`,
      [graceMs, limit],
    );
    return rows.map((row) => row.id);
  }

  /**
   * Endpoints that no longer exist but are still owed deliveries or hold a lane (their deletion's
   * message lost): a loose scan of the pending and lane indexes, one probe per endpoint with owed
   * work, so the cost follows the number of such endpoints, not of deliveries.
   */
  async deletedEndpointsOwed(limit: number): Promise<string[]> {
    const rows = await sqlRows<{ endpoint_id: string }>(
      this.db,
      `WITH RECURSIVE owed AS (
         (SELECT endpoint_id FROM webhook_deliveries WHERE status = 'pending' ORDER BY endpoint_id LIMIT 1)
         UNION ALL
         SELECT next.endpoint_id FROM owed CROSS JOIN LATERAL (
           SELECT endpoint_id FROM webhook_deliveries
           WHERE status = 'pending' AND endpoint_id > owed.endpoint_id ORDER BY endpoint_id LIMIT 1) next
       ), lanes AS (
         (SELECT endpoint_id FROM webhook_deliveries WHERE lane_due_at IS NOT NULL ORDER BY endpoint_id LIMIT 1)
         UNION ALL
         SELECT next.endpoint_id FROM lanes CROSS JOIN LATERAL (
           SELECT endpoint_id FROM webhook_deliveries
           WHERE lane_due_at IS NOT NULL AND endpoint_id > lanes.endpoint_id ORDER BY endpoint_id LIMIT 1) next
       )
       SELECT endpoint_id FROM (SELECT endpoint_id FROM owed UNION SELECT endpoint_id FROM lanes) o
       WHERE NOT EXISTS (SELECT 1 FROM webhook_endpoints w WHERE w.id = o.endpoint_id)
       LIMIT $1`,
      [limit],
    );
    return rows.map((row) => row.endpoint_id);
  }

  /**
   * The endpoint is gone: every delivery still owed to it ends failed (`endpoint_deleted`), and its
   * lane is emptied (no lease finds a deleted endpoint's lane). An attempt in flight that is recorded
   * later keeps that ending, unless it succeeded. From the deletion's message, or the sweep.
   */
  async endDeliveriesOf(endpointId: string): Promise<void> {
    await sqlRows(
      this.db,
      `UPDATE webhook_deliveries
       SET status = CASE WHEN status = 'pending' THEN 'failed' ELSE status END,
           undelivered_reason = CASE WHEN status = 'pending' THEN $2 ELSE undelivered_reason END,
           lane_due_at = NULL, lane_retry_step = NULL
       WHERE endpoint_id = $1 AND (status = 'pending' OR lane_due_at IS NOT NULL)
         AND NOT EXISTS (SELECT 1 FROM webhook_endpoints WHERE id = $1)`,
      [endpointId, ENDPOINT_DELETED],
    );
  }
}
