import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { WebhookEndpointDeletedV1, WebhookRecoveryRequestedV1 } from '@payhook/contracts';
import { sqlRows } from '@payhook/persistence';
import { DataSource } from 'typeorm';
import { ENDPOINT_DELETED } from './deliveries.repository';

/**
 * The changes of delivery state that payments-api asks for through its outbox: the dispatcher alone
 * changes webhook_deliveries once they exist. Each is one statement, and doing it twice (a message
 * delivered again after a crash before its ack) changes nothing more.
 */
@Injectable()
export class DeliveryStateRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Carries out a recover once (event_recoveries.applied_at): every failed delivery of the scope (to
   * the endpoint, when named) of an event created since `since` becomes pending again under the
   * recovery, and every failed event that had no endpoint then gets a pending delivery to each endpoint
   * that takes its type. They wait in their endpoints' lanes, due now in the order of their events
   * (oldest first, a microsecond apart), as fresh automatic deliveries (step 0, retries included),
   * with the recover request's correlation. Null when the recovery was carried out already (or is
   * unknown); else how many deliveries it queued.
   */
  async applyRecovery(recovery: WebhookRecoveryRequestedV1, headers: Record<string, string>): Promise<number | null> {
    const [row] = await sqlRows<{ applied: boolean; queued: number }>(
      this.db,
      `WITH recovery AS (
         UPDATE event_recoveries SET applied_at = now()
         WHERE id = $1 AND merchant_id = $2 AND livemode = $3 AND applied_at IS NULL
         RETURNING id
       ), endpoint AS (
         SELECT id, enabled_events FROM webhook_endpoints
         WHERE merchant_id = $2 AND livemode = $3 AND ($5::text IS NULL OR id = $5) AND EXISTS (SELECT 1 FROM recovery)
       ), picked AS (
         SELECT d.event_id, d.endpoint_id, d.created_at, false AS unsent FROM webhook_deliveries d
         WHERE d.merchant_id = $2 AND d.livemode = $3 AND d.status = 'failed' AND d.created_at >= $4
           AND d.endpoint_id IN (SELECT id FROM endpoint)
         UNION ALL
         -- Failed without a delivery: the mode had no endpoint then.
         SELECT e.id, w.id, e.created_at, true FROM events e JOIN endpoint w ON e.type = ANY (w.enabled_events)
         WHERE e.merchant_id = $2 AND e.livemode = $3 AND e.delivery_status = 'failed' AND e.created_at >= $4
           AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id)
       ), due AS (
         SELECT *, now() + make_interval(secs => row_number() OVER (ORDER BY created_at, event_id, endpoint_id)
                                                  / 1000000.0) AS due_at
         FROM picked
       ), retried AS (
         UPDATE webhook_deliveries d SET status = 'pending', undelivered_reason = NULL, recovery_id = $1,
           lane_due_at = due.due_at, lane_retry_step = 0, lane_headers = $6
         FROM due
         WHERE NOT due.unsent AND d.event_id = due.event_id AND d.endpoint_id = due.endpoint_id AND d.status = 'failed'
         RETURNING 1
       ), unsent AS (
         INSERT INTO webhook_deliveries (event_id, endpoint_id, merchant_id, livemode, status, recovery_id, created_at,
                                         lane_due_at, lane_retry_step, lane_headers)
         SELECT due.event_id, due.endpoint_id, $2, $3, 'pending', $1, due.created_at, due.due_at, 0, $6
         FROM due WHERE due.unsent
         -- A manual redelivery may have written one meanwhile: that one stands.
         ON CONFLICT (event_id, endpoint_id) DO NOTHING
         RETURNING 1
       )
       SELECT EXISTS (SELECT 1 FROM recovery) AS applied,
              ((SELECT count(*) FROM retried) + (SELECT count(*) FROM unsent))::int AS queued`,
      [
        recovery.recoveryId,
        recovery.merchantId,
        recovery.livemode,
        new Date(recovery.since),
        recovery.endpointId,
        JSON.stringify(headers),
      ],
    );
    return row.applied ? row.queued : null;
  }

  /**
   * The endpoint is gone: every delivery still owed to it ends failed (`endpoint_deleted`), and its
   * lane is emptied (no lease finds a deleted endpoint's lane). An attempt in flight that is recorded
   * later keeps that ending, unless it succeeded.
   */
  async endDeliveriesOf(deleted: WebhookEndpointDeletedV1): Promise<void> {
    await sqlRows(
      this.db,
      `UPDATE webhook_deliveries
       SET status = CASE WHEN status = 'pending' THEN 'failed' ELSE status END,
           undelivered_reason = CASE WHEN status = 'pending' THEN $2 ELSE undelivered_reason END,
           lane_due_at = NULL, lane_retry_step = NULL
       WHERE endpoint_id = $1 AND (status = 'pending' OR lane_due_at IS NOT NULL)
         AND NOT EXISTS (SELECT 1 FROM webhook_endpoints WHERE id = $1)`,
      [deleted.endpointId, ENDPOINT_DELETED],
    );
  }
}
