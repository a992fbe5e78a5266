import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every move out of `pending` writes an event; one whose type the endpoint has not
 * enabled is recorded `skipped`. The check is replaced NOT VALID and validated apart: validating
 * reads every event but takes no lock that stops writes.
 */
export class EveryOutcomeEvent1764700000000 implements MigrationInterface {
  name = 'EveryOutcomeEvent1764700000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE events DROP CONSTRAINT events_delivery_status_check`);
    await db.query(`
      ALTER TABLE events ADD CONSTRAINT events_delivery_status_check
        CHECK (delivery_status IN ('pending', 'succeeded', 'failed', 'skipped')) NOT VALID`);
    await db.query(`ALTER TABLE events VALIDATE CONSTRAINT events_delivery_status_check`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`UPDATE events SET delivery_status = 'failed' WHERE delivery_status = 'skipped'`);
    await db.query(`ALTER TABLE events DROP CONSTRAINT events_delivery_status_check`);
    await db.query(`
      ALTER TABLE events ADD CONSTRAINT events_delivery_status_check
        CHECK (delivery_status IN ('pending', 'succeeded', 'failed'))`);
  }
}
