import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Settlement records of a day read in the order their payments completed (issue 24), not by payment
 * id: the list index gains completed_at before the id, and the old one, a prefix of it, goes.
 * Built CONCURRENTLY, outside a transaction, as in ListIndexes1764300000000: settlements keep taking
 * inserts meanwhile, and a build that failed half-way is dropped and built again by the next run.
 */
export class SettlementsDayOrder1765100000000 implements MigrationInterface {
  name = 'SettlementsDayOrder1765100000000';
  transaction = false;

  async up(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX CONCURRENTLY IF EXISTS settlements_day_order_idx`);
    await db.query(
      `CREATE INDEX CONCURRENTLY settlements_day_order_idx
       ON settlements (merchant_id, livemode, sales_date, completed_at, payment_id)`,
    );
    await db.query(`DROP INDEX CONCURRENTLY IF EXISTS settlements_list_idx`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(
      `CREATE INDEX CONCURRENTLY IF NOT EXISTS settlements_list_idx
       ON settlements (merchant_id, livemode, sales_date, payment_id)`,
    );
    await db.query(`DROP INDEX CONCURRENTLY IF EXISTS settlements_day_order_idx`);
  }
}
