import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A merchant's team runs its own account (issue 29): members with roles instead of one console
 * login, invites, two-step login, an audit log, and API keys that expire after a roll.
 *
 * The console login set at approval becomes the merchant's first owner; its password hash moves
 * with it (merchants keeps `console_email` as the approval's record). Sessions now belong to a
 * member; sessions from before cannot say whose they are, so they end (a new login is all it takes).
 */
export class MerchantTeam1765900000000 implements MigrationInterface {
  name = 'MerchantTeam1765900000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE merchant_members (
        id text PRIMARY KEY,
        merchant_id text NOT NULL REFERENCES merchants (id),
        email text NOT NULL,
        password_hash text NOT NULL,
        role text NOT NULL CHECK (role IN ('owner', 'developer', 'viewer')),
        -- TOTP: the secret sealed under SECRETS_KEY, set once confirmed with a code; the last time
        -- step accepted, so a code is never taken twice.
        totp_secret text,
        totp_pending_secret text,
        totp_last_step bigint,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    // One login, one merchant: the email alone finds the member at login.
    await db.query(`CREATE UNIQUE INDEX merchant_members_email_key ON merchant_members (email)`);
    await db.query(`CREATE INDEX merchant_members_merchant_idx ON merchant_members (merchant_id, created_at, id)`);
    await db.query(`
      INSERT INTO merchant_members (id, merchant_id, email, password_hash, role, created_at)
      SELECT 'mem_' || substr(md5(random()::text || id), 1, 24), id, console_email,
             console_password_hash, 'owner', updated_at
      FROM merchants WHERE console_email IS NOT NULL AND console_password_hash IS NOT NULL`);
    await db.query(`ALTER TABLE merchants DROP COLUMN console_password_hash`);

    await db.query(`
      CREATE TABLE member_recovery_codes (
        member_id text NOT NULL REFERENCES merchant_members (id) ON DELETE CASCADE,
        code_hash text NOT NULL,
        used_at timestamptz,
        PRIMARY KEY (member_id, code_hash)
      )`);

    await db.query(`DELETE FROM console_sessions`);
    await db.query(`
      ALTER TABLE console_sessions
        ADD COLUMN member_id text NOT NULL REFERENCES merchant_members (id) ON DELETE CASCADE,
        -- Set once the second step is passed (at once for a member without TOTP).
        ADD COLUMN verified_at timestamptz,
        -- Wrong codes given in this session's second step: it ends after a few (MAX_SECOND_STEP_FAILURES).
        ADD COLUMN second_step_failures integer NOT NULL DEFAULT 0`);
    await db.query(`CREATE INDEX console_sessions_member_idx ON console_sessions (member_id)`);

    await db.query(`
      CREATE TABLE member_invites (
        id text PRIMARY KEY,
        token_hash text NOT NULL UNIQUE,
        merchant_id text NOT NULL REFERENCES merchants (id),
        email text NOT NULL,
        role text NOT NULL CHECK (role IN ('owner', 'developer', 'viewer')),
        invited_by text NOT NULL,
        expires_at timestamptz NOT NULL,
        accepted_at timestamptz,
        revoked_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(`CREATE INDEX member_invites_merchant_idx ON member_invites (merchant_id, created_at DESC, id)`);

    // A rolled key keeps working until then; null: until revoked.
    await db.query(`ALTER TABLE api_keys ADD COLUMN expires_at timestamptz`);

    await db.query(`
      CREATE TABLE audit_log (
        id text PRIMARY KEY,
        merchant_id text NOT NULL REFERENCES merchants (id),
        actor text NOT NULL,
        action text NOT NULL,
        target text,
        client_address text,
        -- To the millisecond, as the console's keyset cursor carries it: no entry falls between pages.
        created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', clock_timestamp())
      )`);
    // Newest first, whole, by actor, by action or both: each a keyset scan of its own index.
    await db.query(`CREATE INDEX audit_log_merchant_idx ON audit_log (merchant_id, created_at DESC, id DESC)`);
    await db.query(`CREATE INDEX audit_log_actor_idx ON audit_log (merchant_id, actor, created_at DESC, id DESC)`);
    await db.query(`CREATE INDEX audit_log_action_idx ON audit_log (merchant_id, action, created_at DESC, id DESC)`);
    await db.query(
      `CREATE INDEX audit_log_actor_action_idx ON audit_log (merchant_id, actor, action, created_at DESC, id DESC)`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE IF EXISTS audit_log`);
    await db.query(`ALTER TABLE api_keys DROP COLUMN IF EXISTS expires_at`);
    await db.query(`DROP TABLE IF EXISTS member_invites`);
    await db.query(`DELETE FROM console_sessions`);
    await db.query(
      `ALTER TABLE console_sessions DROP COLUMN member_id, DROP COLUMN verified_at, DROP COLUMN second_step_failures`,
    );
    await db.query(`DROP TABLE IF EXISTS member_recovery_codes`);
    await db.query(`ALTER TABLE merchants ADD COLUMN console_password_hash text`);
    await db.query(`
      UPDATE merchants m SET console_password_hash = o.password_hash
      FROM merchant_members o WHERE o.merchant_id = m.id AND o.email = m.console_email`);
    await db.query(`DROP TABLE IF EXISTS merchant_members`);
  }
}
