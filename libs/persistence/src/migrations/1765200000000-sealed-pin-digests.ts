import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A voucher row keeps, beside its keyed PIN hash, the PIN's SHA-256 digest sealed under the same
 * SECRETS_KEY (issue 25): a SECRETS_KEY rotation can then move every row to the new key without its
 * PIN, a redeemed one included. Rows stored before have none (NULL) and move only when their PIN is
 * seen again; nothing here can fill them in, since only the keyed hash of their PIN is stored.
 */
export class SealedPinDigests1765200000000 implements MigrationInterface {
  name = 'SealedPinDigests1765200000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE vouchers ADD COLUMN IF NOT EXISTS pin_digest_sealed text`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE vouchers DROP COLUMN IF EXISTS pin_digest_sealed`);
  }
}
