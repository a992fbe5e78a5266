import { Injectable } from '@nestjs/common';
import type { MerchantScope } from '@payhook/auth';
import { newId } from '@payhook/contracts';
import { outgoingMessageHeaders } from '@payhook/observability';
import { Ledger } from '../../core/ledger';

/**
 * What a merchant asks of deliveries that already exist: one more attempt of an event, or every
 * failed delivery sent again. The webhook-dispatcher alone changes webhook_deliveries once they
 * exist, so this writes intent to the outbox (in the ledger's transaction, so nothing is lost
 * between the answer and the dispatcher) and answers from reads; the dispatcher carries it out.
 */
@Injectable()
export class DeliveryRequests {
  constructor(private readonly ledger: Ledger) {}

  /**
   * One more attempt of an event the scope owns, outside its retries: to `endpointId`, or else to
   * every endpoint of its mode that takes its type (the oldest one when none does: a skipped event).
   * An event of a mode without any endpoint is queued for nothing: it keeps saying why. The
   * dispatcher writes the delivery a skipped event gets with that attempt.
   */
  redeliver(
    scope: MerchantScope,
    id: string,
    endpointId: string | null,
  ): Promise<'queued' | 'event_not_found' | 'endpoint_not_found'> {
    return this.ledger.write(async (tx) => {
      const rows = await tx.sql<{ endpoint_id: string | null; takes_type: boolean | null }>(
        `SELECT w.id AS endpoint_id, e.type = ANY (w.enabled_events) AS takes_type
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
      await tx.outbox.enqueue(
        targets.map((row) => ({ eventId: id, endpointId: row.endpoint_id!, retryStep: 0, manual: true })),
      );
      return 'queued';
    });
  }

  /**
   * Every failed delivery of the scope (to `endpointId` only, when given) of an event created since
   * `since`, and every failed event that had no endpoint to go to (now to each endpoint that takes
   * its type), is sent again by the dispatcher under a new recovery, oldest first, as a fresh automatic
   * delivery. `queued` is how many that is as the request sees them. Null when the scope's previous
   * recover is still running (not yet carried out, or with deliveries pending): one at a time per
   * merchant and mode.
   */
  recover(
    scope: MerchantScope,
    since: Date,
    endpointId: string | null,
  ): Promise<{ queued: number } | 'endpoint_not_found' | null> {
    return this.ledger.write(async (tx) => {
      if (endpointId !== null) {
        const found = await tx.sql(
          `SELECT 1 FROM webhook_endpoints WHERE id = $1 AND merchant_id = $2 AND livemode = $3`,
          [endpointId, scope.merchantId, scope.livemode],
        );
        if (found.length === 0) return 'endpoint_not_found';
      }
      // Serialises recovers of one merchant and mode; no other merchant ever waits on it.
      await tx.sql(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [
        `recover:${scope.merchantId}:${scope.livemode}`,
      ]);
      const running = await tx.sql(
        `SELECT 1 FROM (SELECT id, applied_at FROM event_recoveries WHERE merchant_id = $1 AND livemode = $2
                        ORDER BY created_at DESC LIMIT 1) latest
         WHERE latest.applied_at IS NULL
            OR EXISTS (SELECT 1 FROM webhook_deliveries WHERE recovery_id = latest.id AND status = 'pending')`,
        [scope.merchantId, scope.livemode],
      );
      if (running.length > 0) return null;
      // What the dispatcher will pick (its recovery statement has the same conditions), read here for
      // the answer: a delivery that fails or succeeds in between is the dispatcher's to see.
      const [{ queued }] = await tx.sql<{ queued: number }>(
        `WITH endpoint AS (
           SELECT id, enabled_events FROM webhook_endpoints
           WHERE merchant_id = $1 AND livemode = $2 AND ($4::text IS NULL OR id = $4)
         )
         SELECT (SELECT count(*) FROM webhook_deliveries d
                 WHERE d.merchant_id = $1 AND d.livemode = $2 AND d.status = 'failed' AND d.created_at >= $3
                   AND d.endpoint_id IN (SELECT id FROM endpoint))::int
              + (SELECT count(*) FROM events e JOIN endpoint w ON e.type = ANY (w.enabled_events)
                 WHERE e.merchant_id = $1 AND e.livemode = $2 AND e.delivery_status = 'failed' AND e.created_at >= $3
                   AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id))::int AS queued`,
        [scope.merchantId, scope.livemode, since, endpointId],
      );
      const recoveryId = newId('recovery');
      // The row holds all the dispatcher needs: its sweep carries it out should the message be lost.
      // Nothing to send: carried out already, and the dispatcher is not asked. Else an explicit NULL
      // (the column's default, now(), is for older API instances that carry out their own).
      await tx.sql(
        `INSERT INTO event_recoveries (id, merchant_id, livemode, since, queued, endpoint_id, headers, applied_at)
         VALUES ($1, $2, $3, $4, $5::int, $6, $7, CASE WHEN $5::int = 0 THEN now() ELSE NULL END)`,
        [recoveryId, scope.merchantId, scope.livemode, since, queued, endpointId, outgoingMessageHeaders()],
      );
      if (queued > 0) {
        await tx.outbox.requestRecovery({
          recoveryId,
          merchantId: scope.merchantId,
          livemode: scope.livemode,
          since: since.toISOString(),
          endpointId,
        });
      }
      return { queued };
    });
  }
}
