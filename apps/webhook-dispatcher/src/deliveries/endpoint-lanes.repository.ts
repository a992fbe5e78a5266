import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { SecretsKeyring } from '@payhook/config';
import { messageHeadersFrom } from '@payhook/observability';
import { sqlRows, type WarmUpStatement } from '@payhook/persistence';
import { DataSource } from 'typeorm';
import { WebhookDispatcherEnv } from '../config/webhook-dispatcher.env';
import type { DeliveryTarget, EndpointKey, EndpointState, TargetStatus } from './deliveries.repository';
import { PREVIOUS_SECRET_SQL, openPreviousSecret, openSigningSecret } from './deliveries.repository';

/** A parked delivery taken from its endpoint's lane, with the retry step its next attempt is. */
export interface LaneDelivery {
  target: DeliveryTarget;
  retryStep: number;
  /** The correlation of the request that caused it, parked with it. */
  headers: Record<string, string>;
}

/** A leased lane's endpoint: its health decides the turn; its secrets are read with the work claimed. */
export type LeasedEndpoint = Omit<EndpointState, 'signingSecret' | 'previousSecret'>;

interface LeasedEndpointRow {
  id: string;
  merchant_id: string;
  livemode: boolean;
  url: string;
  status: 'enabled' | 'disabled';
  consecutive_failures: number;
}

const toLeasedEndpoint = (row: LeasedEndpointRow): LeasedEndpoint => ({
  key: { id: row.id, merchantId: row.merchant_id, livemode: row.livemode },
  url: row.url,
  status: row.status,
  consecutiveFailures: row.consecutive_failures,
});

/** Leases endpoints with due lanes: see leaseDueEndpoints. */
const LEASE_LANES = {
  name: 'lanes-lease',
  text: `WITH RECURSIVE lanes AS (
         (SELECT endpoint_id, lane_due_at FROM webhook_deliveries WHERE lane_due_at IS NOT NULL
          ORDER BY endpoint_id, lane_due_at LIMIT 1)
         UNION ALL
         SELECT next.* FROM lanes CROSS JOIN LATERAL (
           SELECT endpoint_id, lane_due_at FROM webhook_deliveries
           WHERE lane_due_at IS NOT NULL AND endpoint_id > lanes.endpoint_id
           ORDER BY endpoint_id, lane_due_at LIMIT 1) next
       ), due AS (
         SELECT w.id FROM lanes
         JOIN webhook_endpoints w ON w.id = lanes.endpoint_id
         WHERE lanes.lane_due_at <= now() AND (w.lane_lease_until IS NULL OR w.lane_lease_until < now())
           AND w.id <> ALL ($3::text[])
         ORDER BY lanes.lane_due_at LIMIT $1
         FOR UPDATE OF w SKIP LOCKED
       )
       UPDATE webhook_endpoints w SET lane_lease_until = now() + make_interval(secs => $2 / 1000.0)
       FROM due WHERE w.id = due.id
       RETURNING w.id, w.merchant_id, w.livemode, w.url, w.status, w.consecutive_failures`,
};

/**
 * Claims a lane's due deliveries with the endpoint's state: see claimDue. Each is updated by the ctid
 * of the row version locked for it: joined by its key, a plan made while the table was empty scanned
 * the endpoint's whole lane for every claimed delivery.
 */
const CLAIM_DUE = {
  name: 'lanes-claim',
  text: `WITH claimed AS (
         UPDATE webhook_deliveries d SET lane_due_at = CASE WHEN d.status <> 'pending' THEN NULL
                                                       ELSE now() + make_interval(secs => $3 / 1000.0) END
         FROM (SELECT ctid FROM webhook_deliveries
               WHERE endpoint_id = $1 AND lane_due_at <= now()
               ORDER BY lane_due_at LIMIT $2 FOR UPDATE SKIP LOCKED) due
         WHERE d.ctid = due.ctid AND $2 > 0
         RETURNING d.event_id, d.status, d.lane_retry_step, d.lane_headers
       )
       SELECT w.id, w.merchant_id, w.livemode, w.url, w.signing_secret, ${PREVIOUS_SECRET_SQL}, w.status,
              w.consecutive_failures, c.event_id, e.payment_id, e.body, c.status AS delivery_status, c.lane_retry_step,
              c.lane_headers
       FROM webhook_endpoints w LEFT JOIN claimed c ON true LEFT JOIN events e ON e.id = c.event_id
       WHERE w.id = $1`,
};

/** Hands a lease back. */
const RELEASE_LANE = {
  name: 'lanes-release',
  text: `UPDATE webhook_endpoints SET lane_lease_until = NULL WHERE id = $1`,
};

/** The lane statements with input that matches nothing: warmPool prepares them with the delivery statements. */
export const LANE_STATEMENTS: WarmUpStatement[] = [
  { ...LEASE_LANES, values: [0, 0, []] },
  { ...CLAIM_DUE, values: ['', 0, 0] },
  { ...RELEASE_LANE, values: [''] },
];

/**
 * The lanes: deliveries owed to an endpoint in trouble (circuit open, or every slot busy) wait here, in
 * Postgres, instead of in the shared broker queue. An endpoint's lane is worked by one dispatcher
 * instance at a time under a lease; a crashed instance's lease runs out and another takes over.
 */
@Injectable()
export class EndpointLanesRepository {
  private readonly keyring: SecretsKeyring;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(WebhookDispatcherEnv) env: WebhookDispatcherEnv,
  ) {
    this.keyring = env.secretsKeyring;
  }

  /**
   * Leases up to `limit` endpoints whose lanes have due work, the longest due first, for `leaseMs`.
   * The lanes are found by a loose scan of the lane index (one probe per endpoint with parked
   * deliveries), so the cost follows the number of troubled endpoints, not the number of deliveries.
   * The `skipped` endpoints (no free slot on this instance) are left to the others.
   */
  async leaseDueEndpoints(limit: number, leaseMs: number, skipped: string[] = []): Promise<LeasedEndpoint[]> {
    const rows = await sqlRows<LeasedEndpointRow>(
      this.db,
      LEASE_LANES.text,
      [limit, leaseMs, skipped],
      LEASE_LANES.name,
    );
    return rows.map(toLeasedEndpoint);
  }

  /**
   * Takes up to `limit` due deliveries of the lane, oldest due first, and reads the endpoint's health
   * as it stands now (attempts here and on the broker path change it), in one statement. Their due
   * time moves past the lease, so a crash before their attempts are recorded hands them back when the
   * lease has run out. `endpoint` is null when the merchant deleted it.
   */
  async claimDue(
    key: EndpointKey,
    limit: number,
    leaseMs: number,
  ): Promise<{ endpoint: EndpointState | null; deliveries: LaneDelivery[] }> {
    const rows = await sqlRows<
      LeasedEndpointRow & {
        signing_secret: string;
        previous_signing_secret: string | null;
        previous_secret_expires_at: Date | null;
        event_id: string | null;
        payment_id: string;
        body: string;
        delivery_status: TargetStatus;
        lane_retry_step: number;
        lane_headers: Record<string, string> | null;
      }
    >(
      this.db,
      // A delivery that ended meanwhile (succeeded by a manual redelivery, or failed) just leaves the lane.
      CLAIM_DUE.text,
      [key.id, limit, leaseMs],
      CLAIM_DUE.name,
    );
    if (rows.length === 0) return { endpoint: null, deliveries: [] };
    const endpoint: EndpointState = {
      ...toLeasedEndpoint(rows[0]),
      signingSecret: openSigningSecret(this.keyring, key, rows[0].signing_secret),
      previousSecret: openPreviousSecret(this.keyring, key, rows[0]),
    };
    const deliveries = rows
      .filter((row) => row.event_id !== null && row.delivery_status === 'pending')
      .map((row) => ({
        retryStep: row.lane_retry_step,
        headers: messageHeadersFrom(row.lane_headers),
        target: {
          eventId: row.event_id!,
          paymentId: row.payment_id,
          body: row.body,
          deliveryStatus: row.delivery_status,
          endpoint,
        },
      }));
    return { endpoint, deliveries };
  }

  /** Gives the lease back, so any instance can take the lane on its next poll. */
  async release(key: EndpointKey): Promise<void> {
    await sqlRows(this.db, RELEASE_LANE.text, [key.id], RELEASE_LANE.name);
  }
}
