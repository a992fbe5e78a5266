import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A console login belongs to one merchant, no longer to an address across all of them: an address
 * may be a member of several teams, each membership with its own password, and a login whose
 * password opens more than one asks which merchant after sign-in. So nobody reserves an address by
 * accepting an invite to it: the operator's approval and other teams' invites still work for its
 * real owner.
 *
 * - merchant_members: unique per (email, merchant), which also finds an address's logins.
 * - merchants.console_email: the approval's record, no longer unique.
 * - password_reset_requests: a link resets the address's every login (its owner proves the
 *   address), so it no longer names a member.
 * - console_login_choices: a password that opened several logins, until one is chosen; each row
 *   keeps the hash it matched, so a password changed meanwhile opens nothing.
 * - member_invites.link_shown: the link was shown to the inviting owner (e-mail off), so accepting
 *   it proves nothing about the address; `resends` counts new links sent for the invite.
 * - merchant_members.address_proven: the login's address was proven (the operator's approval, or an
 *   invite link that went only to the address). Only such logins are set by an e-mailed reset link,
 *   and only their password changes use up the address's open reset links: a login made by whoever
 *   held a shown link can neither take the address's password nor cancel its resets. Logins from
 *   before were one per address, so no other login of the address could be hurt by them: proven.
 *   Invites still open were shown to their owners (every invite was): accepting one proves nothing.
 */
export class LoginsPerMerchant1766700000000 implements MigrationInterface {
  name = 'LoginsPerMerchant1766700000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`CREATE UNIQUE INDEX merchant_members_email_merchant_key ON merchant_members (email, merchant_id)`);
    await db.query(`DROP INDEX merchant_members_email_key`);
    await db.query(`ALTER TABLE merchants DROP CONSTRAINT merchants_console_email_key`);
    await db.query(`ALTER TABLE password_reset_requests DROP COLUMN member_id`);
    // Every invite made before was shown to its owner; from now on it is said per invite.
    await db.query(`ALTER TABLE member_invites
      ADD COLUMN link_shown boolean NOT NULL DEFAULT true,
      ADD COLUMN resends integer NOT NULL DEFAULT 0`);
    await db.query(`ALTER TABLE member_invites ALTER COLUMN link_shown DROP DEFAULT`);
    await db.query(`ALTER TABLE merchant_members ADD COLUMN address_proven boolean NOT NULL DEFAULT true`);
    await db.query(`ALTER TABLE merchant_members ALTER COLUMN address_proven SET DEFAULT false`);
    await db.query(`
      CREATE TABLE console_login_choices (
        token_hash text NOT NULL,
        member_id text NOT NULL REFERENCES merchant_members (id) ON DELETE CASCADE,
        password_hash text NOT NULL,
        expires_at timestamptz NOT NULL,
        PRIMARY KEY (token_hash, member_id)
      )`);
    await db.query(`CREATE INDEX console_login_choices_member_idx ON console_login_choices (member_id)`);
    await db.query(`CREATE INDEX console_login_choices_expires_idx ON console_login_choices (expires_at)`);
  }

  async down(db: QueryRunner): Promise<void> {
    const [shared] = (await db.query(
      `SELECT email FROM merchant_members GROUP BY email HAVING count(*) > 1 LIMIT 1`,
    )) as { email: string }[];
    if (shared) {
      throw new Error(
        `${shared.email} has logins at several merchants: remove all but one of them before going back to one login per address.`,
      );
    }
    const [approvedTwice] = (await db.query(
      `SELECT console_email AS email FROM merchants WHERE console_email IS NOT NULL
       GROUP BY console_email HAVING count(*) > 1 LIMIT 1`,
    )) as { email: string }[];
    if (approvedTwice) {
      throw new Error(
        `${approvedTwice.email} was approved as the console login of several merchants: set all but one of their console_email to NULL first.`,
      );
    }
    await db.query(`DROP TABLE console_login_choices`);
    await db.query(`ALTER TABLE merchant_members DROP COLUMN address_proven`);
    await db.query(`ALTER TABLE member_invites DROP COLUMN link_shown, DROP COLUMN resends`);
    // Open reset links named no member since: they stop working.
    await db.query(
      `UPDATE password_reset_requests SET used_at = now() WHERE token_hash IS NOT NULL AND used_at IS NULL`,
    );
    await db.query(`ALTER TABLE password_reset_requests
      ADD COLUMN member_id text REFERENCES merchant_members (id) ON DELETE CASCADE`);
    await db.query(`CREATE INDEX password_reset_requests_member_idx ON password_reset_requests (member_id)`);
    await db.query(`ALTER TABLE merchants ADD CONSTRAINT merchants_console_email_key UNIQUE (console_email)`);
    await db.query(`CREATE UNIQUE INDEX merchant_members_email_key ON merchant_members (email)`);
    await db.query(`DROP INDEX merchant_members_email_merchant_key`);
  }
}
