import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * event_recoveries.applied_at: when the webhook-dispatcher made the recovery's deliveries pending
 * again. payments-api records a recover and asks the dispatcher (through its outbox) to carry it out,
 * since the dispatcher alone changes webhook_deliveries once they exist; until then the recover is
 * still running, so a second one waits (recover_in_progress). Every recovery before this was carried
 * out in the transaction that recorded it.
 *
 * Defaults to now(): an API instance older than this, still running during a rolling deploy, inserts
 * without the column a recovery it carried out itself. The new writer inserts an explicit NULL.
 */
export class RecoveriesApplied1766800000000 implements MigrationInterface {
  name = 'RecoveriesApplied1766800000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE event_recoveries ADD COLUMN applied_at timestamptz DEFAULT now()`);
    await db.query(`UPDATE event_recoveries SET applied_at = created_at`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE event_recoveries DROP COLUMN applied_at`);
  }
}
