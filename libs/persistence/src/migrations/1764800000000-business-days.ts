import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Payout dates skip Korean public holidays and the non-banking days an operator adds (ADR
 * 0010); each settlement says which calendar dated it. Rows written before
 * were dated on weekdays only, which the default says. The check is added NOT VALID and validated
 * apart, so a large settlements table is never locked against writes while it is read.
 */
export class BusinessDays1764800000000 implements MigrationInterface {
  name = 'BusinessDays1764800000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE non_banking_days (
        date date PRIMARY KEY,
        name text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(`ALTER TABLE settlements ADD COLUMN payout_rule text NOT NULL DEFAULT 'weekdays_only'`);
    await db.query(`
      ALTER TABLE settlements ADD CONSTRAINT settlements_payout_rule_check
        CHECK (payout_rule IN ('kr_public_holidays', 'weekdays_only')) NOT VALID`);
    await db.query(`ALTER TABLE settlements VALIDATE CONSTRAINT settlements_payout_rule_check`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE settlements DROP COLUMN payout_rule`);
    await db.query(`DROP TABLE non_banking_days`);
  }
}
