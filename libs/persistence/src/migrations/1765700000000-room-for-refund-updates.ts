import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A refund updates its payment's refund counters (ADR 0015). No index holds them, so the update
 * can stay on the row's page (HOT) and write no index entry, but only where the page has room: at
 * the default fillfactor of 100 most refunds moved the row and wrote an entry in each of the
 * payments' ten indexes. Pages written from now on keep a fifth free for those updates (older ones
 * only once rewritten, by VACUUM FULL); on the refund bench 35% → 60% of the updates were HOT and
 * refunds ~+10% per second (BENCHMARKS.md, History "Refunds").
 */
export class RoomForRefundUpdates1765700000000 implements MigrationInterface {
  name = 'RoomForRefundUpdates1765700000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE payments SET (fillfactor = 80)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE payments RESET (fillfactor)`);
  }
}
