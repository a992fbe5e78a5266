import type { MigrationInterface, QueryRunner } from 'typeorm';

/** 24 base62 characters from Postgres, like newId (libs/contracts) makes them: ids, never secrets. */
const RANDOM_ID_SQL = `array_to_string(ARRAY(
  SELECT substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz', 1 + floor(random() * 62)::int, 1)
  FROM generate_series(1, 24 + 0 * length(merchant_id))), '')`;

/**
 * Several webhook endpoints per merchant and mode (ADR 0016). An endpoint is its own row
 * with a `we_…` id; what was the one endpoint of a mode keeps its secret (sealed for the merchant and
 * mode, which every endpoint of the mode shares), health and lease, under a new id.
 *
 * What an event owes each endpoint moves to webhook_deliveries, one row per (event, endpoint): its
 * status, its reason, its place in the endpoint's lane and its recover. Existing events get the row
 * of their mode's endpoint with the state they had (an event with no endpoint in its mode keeps its
 * state on the event, as a skipped one does), and their attempts the endpoint's id. The event's own
 * attempt_count stays: attempts are numbered per event, across its endpoints.
 */
export class SeveralEndpoints1765600000000 implements MigrationInterface {
  name = 'SeveralEndpoints1765600000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE webhook_endpoints ADD COLUMN id text, ADD COLUMN description text`);
    // Milliseconds, like every instant the API shows and takes back in a list cursor.
    await db.query(
      `UPDATE webhook_endpoints SET id = 'we_' || ${RANDOM_ID_SQL}, created_at = date_trunc('milliseconds', created_at)`,
    );
    await db.query(
      `ALTER TABLE webhook_endpoints ALTER COLUMN created_at SET DEFAULT date_trunc('milliseconds', now())`,
    );
    await db.query(`
      ALTER TABLE webhook_endpoints
        ALTER COLUMN id SET NOT NULL,
        DROP CONSTRAINT webhook_endpoints_pkey,
        ADD PRIMARY KEY (id)`);
    // A mode's endpoints, oldest first: the list, the 16 limit, the singular route's oldest, fan-out.
    await db.query(
      `CREATE INDEX webhook_endpoints_scope_idx ON webhook_endpoints (merchant_id, livemode, created_at, id)`,
    );

    await db.query(`
      CREATE TABLE webhook_deliveries (
        event_id text NOT NULL REFERENCES events (id),
        -- No reference: a deleted endpoint's deliveries stay as the event's history.
        endpoint_id text NOT NULL,
        merchant_id text NOT NULL,
        livemode boolean NOT NULL,
        status text NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
        undelivered_reason text,
        lane_due_at timestamptz,
        lane_retry_step integer,
        lane_headers jsonb,
        recovery_id text,
        -- The event's, for recover's "since".
        created_at timestamptz NOT NULL,
        PRIMARY KEY (event_id, endpoint_id)
      )`);
    // An endpoint's lane: its first entry is the lane's earliest due time (ADR 0007, now per endpoint).
    await db.query(
      `CREATE INDEX webhook_deliveries_lane_idx ON webhook_deliveries (endpoint_id, lane_due_at)
       WHERE lane_due_at IS NOT NULL`,
    );
    // Deleting an endpoint fails what it is still owed, in one statement.
    await db.query(
      `CREATE INDEX webhook_deliveries_pending_idx ON webhook_deliveries (endpoint_id) WHERE status = 'pending'`,
    );
    // Recover picks the failed deliveries of one merchant and mode since an instant, oldest first.
    await db.query(
      `CREATE INDEX webhook_deliveries_failed_idx ON webhook_deliveries (merchant_id, livemode, created_at)
       WHERE status = 'failed'`,
    );
    // "Is a recover still running?" looks only at the pending deliveries of recoveries.
    await db.query(
      `CREATE INDEX webhook_deliveries_recovery_pending_idx ON webhook_deliveries (recovery_id)
       WHERE recovery_id IS NOT NULL AND status = 'pending'`,
    );
    await db.query(`
      INSERT INTO webhook_deliveries (event_id, endpoint_id, merchant_id, livemode, status, undelivered_reason,
                                      lane_due_at, lane_retry_step, lane_headers, recovery_id, created_at)
      SELECT e.id, w.id, e.merchant_id, e.livemode, e.delivery_status, e.undelivered_reason, e.lane_due_at,
             e.lane_retry_step, e.lane_headers, e.recovery_id, e.created_at
      FROM events e JOIN webhook_endpoints w ON w.merchant_id = e.merchant_id AND w.livemode = e.livemode
      WHERE e.delivery_status <> 'skipped'`);

    await db.query(`ALTER TABLE webhook_attempts ADD COLUMN endpoint_id text`);
    await db.query(`
      UPDATE webhook_attempts a SET endpoint_id = w.id
      FROM events e JOIN webhook_endpoints w ON w.merchant_id = e.merchant_id AND w.livemode = e.livemode
      WHERE a.event_id = e.id`);

    // The lane and recover of an event with deliveries are theirs now; its own delivery_status and
    // undelivered_reason count only while it has none (no rewrite of the events table here).
    await db.query(`DROP INDEX events_lane_idx`);
    await db.query(`DROP INDEX events_recovery_pending_idx`);
    await db.query(
      `ALTER TABLE events DROP COLUMN lane_due_at, DROP COLUMN lane_retry_step, DROP COLUMN lane_headers,
         DROP COLUMN recovery_id`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE events ADD COLUMN lane_due_at timestamptz, ADD COLUMN lane_retry_step integer,
        ADD COLUMN lane_headers jsonb, ADD COLUMN recovery_id text`);
    // The oldest endpoint's delivery becomes the event's state again; the other endpoints go.
    await db.query(`
      UPDATE events e SET delivery_status = d.status, undelivered_reason = d.undelivered_reason,
        lane_due_at = d.lane_due_at, lane_retry_step = d.lane_retry_step, lane_headers = d.lane_headers,
        recovery_id = d.recovery_id
      FROM webhook_deliveries d
      JOIN LATERAL (SELECT id FROM webhook_endpoints w WHERE w.merchant_id = d.merchant_id
                    AND w.livemode = d.livemode ORDER BY created_at, id LIMIT 1) oldest ON oldest.id = d.endpoint_id
      WHERE d.event_id = e.id`);
    await db.query(
      `CREATE INDEX events_lane_idx ON events (merchant_id, livemode, lane_due_at) WHERE lane_due_at IS NOT NULL`,
    );
    await db.query(
      `CREATE INDEX events_recovery_pending_idx ON events (recovery_id)
       WHERE recovery_id IS NOT NULL AND delivery_status = 'pending'`,
    );
    await db.query(`ALTER TABLE webhook_attempts DROP COLUMN endpoint_id`);
    await db.query(`DROP TABLE webhook_deliveries`);
    await db.query(`
      DELETE FROM webhook_endpoints w WHERE EXISTS (
        SELECT 1 FROM webhook_endpoints older WHERE older.merchant_id = w.merchant_id AND older.livemode = w.livemode
          AND (older.created_at, older.id) < (w.created_at, w.id))`);
    await db.query(`DROP INDEX webhook_endpoints_scope_idx`);
    await db.query(`ALTER TABLE webhook_endpoints ALTER COLUMN created_at SET DEFAULT now()`);
    await db.query(`
      ALTER TABLE webhook_endpoints DROP CONSTRAINT webhook_endpoints_pkey,
        ADD PRIMARY KEY (merchant_id, livemode), DROP COLUMN id, DROP COLUMN description`);
  }
}
