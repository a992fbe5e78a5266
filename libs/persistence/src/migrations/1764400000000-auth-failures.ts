import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Failed authentication counted per client address, for the
 * operator token and the console password alike. It replaces the per-email console lockout, which
 * let anyone lock a merchant out of its own console with five wrong passwords.
 */
export class AuthFailures1764400000000 implements MigrationInterface {
  name = 'AuthFailures1764400000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE auth_failures (
        id bigserial PRIMARY KEY,
        scope text NOT NULL CHECK (scope IN ('admin', 'console')),
        client text NOT NULL,
        failed_at timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(`CREATE INDEX auth_failures_client_idx ON auth_failures (scope, client, failed_at)`);
    await db.query(`CREATE INDEX auth_failures_age_idx ON auth_failures (failed_at)`);
    await db.query(`DROP TABLE console_login_failures`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE console_login_failures (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        email text NOT NULL,
        failed_at timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(`CREATE INDEX console_login_failures_email_idx ON console_login_failures (email, failed_at)`);
    await db.query(`CREATE INDEX console_login_failures_age_idx ON console_login_failures (failed_at)`);
    await db.query(`DROP TABLE auth_failures`);
  }
}
