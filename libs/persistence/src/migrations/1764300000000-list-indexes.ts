import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Indexes that keep reads at day-one cost on tables of tens of millions of rows (docs/performance.md).
 * Built CONCURRENTLY, outside a transaction, so a big live table keeps taking writes meanwhile; a
 * build that failed half-way leaves an invalid index, which the next run drops and builds again.
 */
export class ListIndexes1764300000000 implements MigrationInterface {
  name = 'ListIndexes1764300000000';
  transaction = false;

  async up(db: QueryRunner): Promise<void> {
    // Payments by status, newest first: a rare status (canceled, expired) is a short range of this
    // index instead of a walk over every payment of the merchant. One more entry per insert and per
    // status change: the create path measures the cost in BENCHMARKS.md.
    await buildConcurrently(
      db,
      'payments_status_list_idx',
      `payments (merchant_id, livemode, status, created_at DESC, id DESC)`,
    );
    // Purging attempts older than the retention walks this index from the oldest, a batch at a time.
    await buildConcurrently(db, 'webhook_attempts_started_idx', `webhook_attempts (started_at)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX CONCURRENTLY IF EXISTS webhook_attempts_started_idx`);
    await db.query(`DROP INDEX CONCURRENTLY IF EXISTS payments_status_list_idx`);
  }
}

async function buildConcurrently(db: QueryRunner, name: string, definition: string): Promise<void> {
  await db.query(`DROP INDEX CONCURRENTLY IF EXISTS ${name}`);
  await db.query(`CREATE INDEX CONCURRENTLY ${name} ON ${definition}`);
}
