import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * For a money move that is one statement committed by itself, with no transaction around it (a batch
 * of test refunds, ADR 0015):
 *
 * - `abort_statement(reason)` raises SQLSTATE PH001 (STATEMENT_ABORTED in pg-errors.ts). A statement
 *   calls it when it finds out, after its writes, that they must not stand (an idempotency key taken
 *   meanwhile): the error undoes every write of the statement, as a ROLLBACK would.
 * - `outbox_notify` wakes the relays only when a statement inserted outbox rows. A statement that
 *   writes its deliveries' outbox rows itself runs that INSERT whether it has rows or not, and a
 *   NOTIFY is not free: it wakes every relay, and the commits that notify queue on one lock.
 */
export class StatementsAlone1766000000000 implements MigrationInterface {
  name = 'StatementsAlone1766000000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE OR REPLACE FUNCTION abort_statement(reason text) RETURNS boolean LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION USING ERRCODE = 'PH001', MESSAGE = reason;
      END $$`);
    await db.query(`
      CREATE OR REPLACE FUNCTION notify_outbox() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF EXISTS (SELECT 1 FROM inserted) THEN
          PERFORM pg_notify('payhook_outbox', '');
        END IF;
        RETURN NULL;
      END $$`);
    await db.query('DROP TRIGGER outbox_notify ON outbox');
    await db.query(`
      CREATE TRIGGER outbox_notify AFTER INSERT ON outbox REFERENCING NEW TABLE AS inserted
        FOR EACH STATEMENT EXECUTE FUNCTION notify_outbox()`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TRIGGER outbox_notify ON outbox');
    await db.query(`
      CREATE OR REPLACE FUNCTION notify_outbox() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('payhook_outbox', '');
        RETURN NULL;
      END $$`);
    await db.query(`
      CREATE TRIGGER outbox_notify AFTER INSERT ON outbox
        FOR EACH STATEMENT EXECUTE FUNCTION notify_outbox()`);
    await db.query('DROP FUNCTION abort_statement(text)');
  }
}
