import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Wrong two-step codes count per member as well as per client address (scope `second-step`, the
 * member's id in `client`). auth_failures holds minutes of failures, so swapping its check in one
 * transaction locks it only for a moment.
 */
export class SecondStepThrottle1766100000000 implements MigrationInterface {
  name = 'SecondStepThrottle1766100000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE auth_failures DROP CONSTRAINT auth_failures_scope_check,
        ADD CONSTRAINT auth_failures_scope_check CHECK (scope IN ('admin', 'console', 'second-step'))`);
    // Claimed before each code is checked now, so that codes sent together are not all checked.
    await db.query(`COMMENT ON COLUMN console_sessions.second_step_failures IS
      'codes checked in this session''s second step, each claimed before it is checked'`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DELETE FROM auth_failures WHERE scope = 'second-step'`);
    await db.query(`
      ALTER TABLE auth_failures DROP CONSTRAINT auth_failures_scope_check,
        ADD CONSTRAINT auth_failures_scope_check CHECK (scope IN ('admin', 'console'))`);
    await db.query(`COMMENT ON COLUMN console_sessions.second_step_failures IS NULL`);
  }
}
