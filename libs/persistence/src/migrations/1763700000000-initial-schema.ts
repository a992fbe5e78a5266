import type { MigrationInterface, QueryRunner } from 'typeorm';

export class InitialSchema1763700000000 implements MigrationInterface {
  name = 'InitialSchema1763700000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE merchants (
        id text PRIMARY KEY,
        name text NOT NULL,
        status text NOT NULL CHECK (status IN ('review', 'integrating', 'live')),
        time_zone text NOT NULL,
        console_email text UNIQUE,
        console_password_hash text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(`
      CREATE TABLE api_keys (
        id text PRIMARY KEY,
        merchant_id text NOT NULL REFERENCES merchants (id),
        mode text NOT NULL CHECK (mode IN ('test', 'live')),
        key_hash text NOT NULL UNIQUE,
        key_last4 text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_used_at timestamptz,
        revoked_at timestamptz
      )`);
    await db.query(`CREATE INDEX api_keys_merchant_idx ON api_keys (merchant_id)`);
    await db.query(`
      CREATE TABLE payments (
        id text PRIMARY KEY,
        merchant_id text NOT NULL REFERENCES merchants (id),
        livemode boolean NOT NULL,
        order_id text NOT NULL,
        customer_id text NOT NULL,
        amount bigint NOT NULL CHECK (amount > 0),
        currency text NOT NULL CHECK (currency = 'KRW'),
        status text NOT NULL CHECK (status IN ('pending', 'completed', 'failed', 'canceled', 'expired')),
        return_url text NOT NULL,
        pay_suffix text NOT NULL UNIQUE,
        expires_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL,
        completed_at timestamptz,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    // One order, one live payment: enforced here, not by a read.
    await db.query(`
      CREATE UNIQUE INDEX payments_one_active_per_order
        ON payments (merchant_id, livemode, order_id)
        WHERE status IN ('pending', 'completed')`);
    await db.query(`CREATE INDEX payments_list_idx ON payments (merchant_id, livemode, created_at DESC, id DESC)`);
    await db.query(
      `CREATE INDEX payments_order_idx ON payments (merchant_id, livemode, order_id, created_at DESC, id DESC)`,
    );
    await db.query(
      `CREATE INDEX payments_customer_idx ON payments (merchant_id, livemode, customer_id, created_at DESC, id DESC)`,
    );
    await db.query(`CREATE INDEX payments_pending_expiry_idx ON payments (expires_at) WHERE status = 'pending'`);
    await db.query(`
      CREATE TABLE idempotency_keys (
        merchant_id text NOT NULL REFERENCES merchants (id),
        livemode boolean NOT NULL,
        key text NOT NULL,
        fingerprint text NOT NULL,
        response_status smallint NOT NULL,
        response_body text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        PRIMARY KEY (merchant_id, livemode, key)
      )`);
    await db.query(`CREATE INDEX idempotency_keys_expiry_idx ON idempotency_keys (expires_at)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE idempotency_keys');
    await db.query('DROP TABLE payments');
    await db.query('DROP TABLE api_keys');
    await db.query('DROP TABLE merchants');
  }
}
