import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Recovery codes are stored as keyed hashes (`hmac1:<key id>:…`); the ones stored before as a bare
 * digest are found through this index, empty once each start has keyed them.
 */
export class KeyedRecoveryCodes1766400000000 implements MigrationInterface {
  name = 'KeyedRecoveryCodes1766400000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(
      `CREATE INDEX member_recovery_codes_unkeyed_idx ON member_recovery_codes (member_id)
       WHERE code_hash NOT LIKE 'hmac1:%'`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX member_recovery_codes_unkeyed_idx`);
  }
}
