import type { MigrationInterface, QueryRunner } from 'typeorm';

export class IntegrationTests1763900000000 implements MigrationInterface {
  name = 'IntegrationTests1763900000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE integration_tests (
        id text PRIMARY KEY,
        merchant_id text NOT NULL REFERENCES merchants (id),
        status text NOT NULL CHECK (status IN ('running', 'passed', 'failed')),
        scenarios jsonb NOT NULL,
        started_at timestamptz NOT NULL DEFAULT now(),
        finished_at timestamptz
      )`);
    await db.query(`CREATE INDEX integration_tests_merchant_idx ON integration_tests (merchant_id, started_at DESC)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE integration_tests');
  }
}
