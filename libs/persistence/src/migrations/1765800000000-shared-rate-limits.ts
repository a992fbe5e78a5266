import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * RATE_LIMIT_PER_SECOND across all API instances (ADR 0017): one token bucket per API key that
 * every instance takes leases from. Unlogged: a bucket is worth no WAL write, and one lost in a crash
 * starts full again. `granted` is what the latest take got, for that statement's RETURNING.
 */
export class SharedRateLimits1765800000000 implements MigrationInterface {
  name = 'SharedRateLimits1765800000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE UNLOGGED TABLE rate_limit_buckets (
        key_id text PRIMARY KEY,
        tokens double precision NOT NULL,
        granted integer NOT NULL,
        refilled_at timestamptz NOT NULL
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE IF EXISTS rate_limit_buckets`);
  }
}
