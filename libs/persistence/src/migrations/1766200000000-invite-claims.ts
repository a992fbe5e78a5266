import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An invite link is claimed before the password set with it is hashed: of many requests on one link,
 * only the claimant's password costs a hash. The claim lapses by itself, so a claimant that fails
 * (its hash refused for load, its process gone) leaves the link usable.
 */
export class InviteClaims1766200000000 implements MigrationInterface {
  name = 'InviteClaims1766200000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE member_invites ADD COLUMN claimed_until timestamptz`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE member_invites DROP COLUMN claimed_until`);
  }
}
