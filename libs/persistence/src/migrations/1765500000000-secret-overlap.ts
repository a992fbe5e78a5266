import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Rotation with overlap: a rotated-out signing secret keeps signing `webhook-signature`
 * beside the new one until it expires, sealed at rest like the current one (the same context: moving
 * the sealed text from one column to the other needs no key). Both columns are set or neither.
 */
export class SecretOverlap1765500000000 implements MigrationInterface {
  name = 'SecretOverlap1765500000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE webhook_endpoints
        ADD COLUMN previous_signing_secret text,
        ADD COLUMN previous_secret_expires_at timestamptz,
        ADD CONSTRAINT webhook_endpoints_previous_secret_check
          CHECK ((previous_signing_secret IS NULL) = (previous_secret_expires_at IS NULL))`);
    // The purger's range: only endpoints in an overlap are in it.
    await db.query(
      `CREATE INDEX webhook_endpoints_previous_secret_idx ON webhook_endpoints (previous_secret_expires_at)
       WHERE previous_secret_expires_at IS NOT NULL`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX IF EXISTS webhook_endpoints_previous_secret_idx`);
    await db.query(`
      ALTER TABLE webhook_endpoints
        DROP CONSTRAINT IF EXISTS webhook_endpoints_previous_secret_check,
        DROP COLUMN IF EXISTS previous_secret_expires_at,
        DROP COLUMN IF EXISTS previous_signing_secret`);
  }
}
