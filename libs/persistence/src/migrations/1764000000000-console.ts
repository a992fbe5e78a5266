import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Console1764000000000 implements MigrationInterface {
  name = 'Console1764000000000';

  async up(db: QueryRunner): Promise<void> {
    // The id is the SHA-256 of the cookie's random token: a leaked table opens no session.
    await db.query(`
      CREATE TABLE console_sessions (
        id text PRIMARY KEY,
        merchant_id text NOT NULL REFERENCES merchants (id),
        csrf_token text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        last_seen_at timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(`CREATE INDEX console_sessions_merchant_idx ON console_sessions (merchant_id)`);
    await db.query(`CREATE INDEX console_sessions_expiry_idx ON console_sessions (expires_at)`);
    // One row per login attempt that has not (yet) succeeded; counted per email, so the lockout
    // holds across API instances and says nothing about whether the email exists.
    await db.query(`
      CREATE TABLE console_login_failures (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        email text NOT NULL,
        failed_at timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(`CREATE INDEX console_login_failures_email_idx ON console_login_failures (email, failed_at)`);
    await db.query(`CREATE INDEX console_login_failures_age_idx ON console_login_failures (failed_at)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE console_login_failures');
    await db.query('DROP TABLE console_sessions');
  }
}
