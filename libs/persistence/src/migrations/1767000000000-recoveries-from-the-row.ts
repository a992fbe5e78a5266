import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A recovery is carried out from its event_recoveries row alone, so a lost
 * webhook.recovery-requested.v1 (dead-lettered, or sent to a dispatcher too old to know it) is still
 * carried out by the dispatcher's sweep: the row keeps the endpoint it was limited to (null: every
 * endpoint of the mode) and the correlation of the request. Null in the older rows, which were all
 * carried out when recorded.
 */
export class RecoveriesFromTheRow1767000000000 implements MigrationInterface {
  name = 'RecoveriesFromTheRow1767000000000';

  async up(db: QueryRunner): Promise<void> {
    // For a database that ran RecoveriesApplied1766800000000 before it had the default.
    await db.query(`ALTER TABLE event_recoveries ALTER COLUMN applied_at SET DEFAULT now()`);
    await db.query(`ALTER TABLE event_recoveries ADD COLUMN endpoint_id text, ADD COLUMN headers jsonb`);
    // The sweep's pick: the few recoveries not yet carried out, oldest first.
    await db.query(
      `CREATE INDEX event_recoveries_unapplied_idx ON event_recoveries (created_at) WHERE applied_at IS NULL`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX event_recoveries_unapplied_idx`);
    await db.query(`ALTER TABLE event_recoveries DROP COLUMN endpoint_id, DROP COLUMN headers`);
  }
}
