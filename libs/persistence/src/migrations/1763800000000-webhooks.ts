import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Webhooks1763800000000 implements MigrationInterface {
  name = 'Webhooks1763800000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE webhook_endpoints (
        merchant_id text NOT NULL REFERENCES merchants (id),
        livemode boolean NOT NULL,
        url text NOT NULL,
        signing_secret text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (merchant_id, livemode)
      )`);
    await db.query(`
      CREATE TABLE events (
        id text PRIMARY KEY,
        merchant_id text NOT NULL REFERENCES merchants (id),
        livemode boolean NOT NULL,
        type text NOT NULL,
        payment_id text NOT NULL REFERENCES payments (id),
        body text NOT NULL,
        created_at timestamptz NOT NULL,
        delivery_status text NOT NULL DEFAULT 'pending'
          CHECK (delivery_status IN ('pending', 'succeeded', 'failed')),
        undelivered_reason text,
        attempt_count integer NOT NULL DEFAULT 0,
        last_attempt_at timestamptz
      )`);
    // Each completion writes exactly one payment.completed event.
    await db.query(`CREATE UNIQUE INDEX events_one_per_payment_and_type ON events (payment_id, type)`);
    await db.query(`CREATE INDEX events_list_idx ON events (merchant_id, livemode, created_at DESC, id DESC)`);
    await db.query(`
      CREATE TABLE webhook_attempts (
        id text PRIMARY KEY,
        event_id text NOT NULL REFERENCES events (id),
        number integer NOT NULL,
        url text NOT NULL,
        started_at timestamptz NOT NULL,
        duration_ms integer NOT NULL,
        response_status integer,
        response_body text,
        error text,
        UNIQUE (event_id, number)
      )`);
    // The transactional outbox: rows commit with the change they announce; the relay publishes
    // them with publisher confirms and only then sets published_at.
    await db.query(`
      CREATE TABLE outbox (
        id bigserial PRIMARY KEY,
        routing_key text NOT NULL,
        message_type text NOT NULL,
        payload text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        published_at timestamptz
      )`);
    await db.query(`CREATE INDEX outbox_unpublished_idx ON outbox (id) WHERE published_at IS NULL`);
    await db.query(`CREATE INDEX outbox_published_idx ON outbox (published_at) WHERE published_at IS NOT NULL`);
    // Wakes the relays (LISTEN payhook_outbox) the moment a row commits.
    await db.query(`
      CREATE FUNCTION notify_outbox() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('payhook_outbox', '');
        RETURN NULL;
      END $$`);
    await db.query(`
      CREATE TRIGGER outbox_notify AFTER INSERT ON outbox
        FOR EACH STATEMENT EXECUTE FUNCTION notify_outbox()`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TRIGGER outbox_notify ON outbox');
    await db.query('DROP FUNCTION notify_outbox()');
    await db.query('DROP TABLE outbox');
    await db.query('DROP TABLE webhook_attempts');
    await db.query('DROP TABLE events');
    await db.query('DROP TABLE webhook_endpoints');
  }
}
