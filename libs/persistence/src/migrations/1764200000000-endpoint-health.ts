import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Endpoint health, per-endpoint lanes and recover (ADR 0007). Every new column is nullable or has a
 * constant default, so the ALTERs do not rewrite the events table.
 */
export class EndpointHealth1764200000000 implements MigrationInterface {
  name = 'EndpointHealth1764200000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE webhook_endpoints
        ADD COLUMN status text NOT NULL DEFAULT 'enabled' CHECK (status IN ('enabled', 'disabled')),
        ADD COLUMN failing_since timestamptz,
        ADD COLUMN consecutive_failures integer NOT NULL DEFAULT 0,
        ADD COLUMN last_error text,
        ADD COLUMN disabled_at timestamptz,
        ADD COLUMN enabled_events text[] NOT NULL DEFAULT '{payment.completed}',
        -- The dispatcher instance working the endpoint's lane holds it until then.
        ADD COLUMN lane_lease_until timestamptz`);

    // A parked event waits in its endpoint's lane in Postgres, not in the shared broker queue. The
    // index holds parked events only; its first entry per endpoint is that lane's earliest due time.
    await db.query(`
      ALTER TABLE events
        ADD COLUMN lane_due_at timestamptz,
        ADD COLUMN lane_retry_step integer,
        ADD COLUMN recovery_id text`);
    await db.query(
      `CREATE INDEX events_lane_idx ON events (merchant_id, livemode, lane_due_at) WHERE lane_due_at IS NOT NULL`,
    );
    // "Is a recover still running?" looks only at the pending events of recoveries.
    await db.query(
      `CREATE INDEX events_recovery_pending_idx ON events (recovery_id)
       WHERE recovery_id IS NOT NULL AND delivery_status = 'pending'`,
    );
    // Recover picks the failed events of one merchant and mode since an instant, oldest first.
    await db.query(
      `CREATE INDEX events_failed_idx ON events (merchant_id, livemode, created_at) WHERE delivery_status = 'failed'`,
    );

    await db.query(`
      CREATE TABLE event_recoveries (
        id text PRIMARY KEY,
        merchant_id text NOT NULL REFERENCES merchants (id),
        livemode boolean NOT NULL,
        since timestamptz NOT NULL,
        queued integer NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(`CREATE INDEX event_recoveries_latest_idx ON event_recoveries (merchant_id, livemode, created_at)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE event_recoveries');
    await db.query('DROP INDEX events_failed_idx');
    await db.query('DROP INDEX events_recovery_pending_idx');
    await db.query('DROP INDEX events_lane_idx');
    await db.query('ALTER TABLE events DROP COLUMN lane_due_at, DROP COLUMN lane_retry_step, DROP COLUMN recovery_id');
    await db.query(`
      ALTER TABLE webhook_endpoints
        DROP COLUMN status, DROP COLUMN failing_since, DROP COLUMN consecutive_failures, DROP COLUMN last_error,
        DROP COLUMN disabled_at, DROP COLUMN enabled_events, DROP COLUMN lane_lease_until`);
  }
}
