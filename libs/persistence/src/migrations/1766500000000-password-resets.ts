import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Password resets by e-mailed link. Every request is a row, whether an address had a login or not,
 * so requests are counted per client and per address alike; a row that sent a link holds only the
 * token's SHA-256. Rows older than a day are deleted as new requests come.
 */
export class PasswordResets1766500000000 implements MigrationInterface {
  name = 'PasswordResets1766500000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE password_reset_requests (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        email text NOT NULL,
        client text NOT NULL,
        -- NULL when no login has the address: nothing was sent.
        member_id text REFERENCES merchant_members (id) ON DELETE CASCADE,
        token_hash text UNIQUE,
        expires_at timestamptz,
        -- One request's hold on the link while it hashes the new password.
        claimed_until timestamptz,
        used_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(`CREATE INDEX password_reset_requests_client_idx ON password_reset_requests (client, created_at)`);
    await db.query(`CREATE INDEX password_reset_requests_email_idx ON password_reset_requests (email, created_at)`);
    await db.query(`CREATE INDEX password_reset_requests_member_idx ON password_reset_requests (member_id)`);
    await db.query(`CREATE INDEX password_reset_requests_created_idx ON password_reset_requests (created_at)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE password_reset_requests`);
  }
}
