import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Invites to one address in the last day, whatever the merchant: counted through this index. */
export class InviteLimits1766300000000 implements MigrationInterface {
  name = 'InviteLimits1766300000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`CREATE INDEX member_invites_email_idx ON member_invites (email, created_at)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX member_invites_email_idx`);
  }
}
