import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each member's language for the console and the e-mails sent to it (ko or en); null until the
 * member chooses, and then the console follows the browser and e-mails are Korean.
 */
export class MemberLanguage1767100000000 implements MigrationInterface {
  name = 'MemberLanguage1767100000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(
      `ALTER TABLE merchant_members ADD COLUMN locale text CONSTRAINT merchant_members_locale_check CHECK (locale IN ('ko', 'en'))`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE merchant_members DROP COLUMN locale`);
  }
}
