import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `payhook listen` (ADR 0018): a listen session is an ephemeral
 * endpoint of a merchant's test mode with its own signing secret (sealed under SECRETS_KEY, bound
 * to the session's id), streamed to the CLI over one outgoing connection. It is not a
 * webhook_endpoints row: it takes no part in the 16-endpoint limit, fan-out, lanes or health.
 *
 * The stream reads a mode's events in the order they were written, which created_at is not (an
 * expiry is dated at expiresAt, a completion at its completedAt): `events.recorded_at` is the clock
 * at the insert. Added without a default and then given one, so the existing rows are not rewritten
 * (they stay null: no session is older than this migration). Its index holds test-mode rows only.
 *
 * Outside a transaction, like ListIndexes1764300000000: the index on events is built CONCURRENTLY.
 */
export class ListenSessions1765970000000 implements MigrationInterface {
  name = 'ListenSessions1765970000000';
  transaction = false;

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE events ADD COLUMN IF NOT EXISTS recorded_at timestamptz`);
    await db.query(`ALTER TABLE events ALTER COLUMN recorded_at SET DEFAULT clock_timestamp()`);
    await db.query(`DROP INDEX CONCURRENTLY IF EXISTS events_test_feed_idx`);
    await db.query(
      `CREATE INDEX CONCURRENTLY events_test_feed_idx ON events (merchant_id, recorded_at)
       WHERE NOT livemode AND recorded_at IS NOT NULL`,
    );
    await db.query(`
      CREATE TABLE IF NOT EXISTS listen_sessions (
        id text PRIMARY KEY,
        merchant_id text NOT NULL REFERENCES merchants (id),
        livemode boolean NOT NULL,
        signing_secret text NOT NULL,
        -- Null: every event type.
        enabled_events text[],
        -- The stream that holds the session now; a newer one takes over (the older ends itself).
        connection_id text,
        -- Kept fresh by the open stream; a session unseen for the reconnect grace has ended.
        last_seen_at timestamptz NOT NULL,
        ended_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now())
      )`);
    // The open sessions of a merchant's mode: the per-merchant limit counts them.
    await db.query(
      `CREATE INDEX IF NOT EXISTS listen_sessions_open_idx ON listen_sessions (merchant_id, livemode, last_seen_at)
       WHERE ended_at IS NULL`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE IF EXISTS listen_sessions`);
    await db.query(`DROP INDEX CONCURRENTLY IF EXISTS events_test_feed_idx`);
    await db.query(`ALTER TABLE events DROP COLUMN IF EXISTS recorded_at`);
  }
}
