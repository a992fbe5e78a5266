import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Correlation headers (issue 16): the request id and the trace context of the request that caused a
 * delivery request travel with it, in the outbox row, the Postgres queue row and, while it waits in
 * its endpoint's lane, the event row, so the dispatcher's lines and spans join the request's.
 * Nullable columns without a default: adding them rewrites nothing.
 */
export class MessageHeaders1765000000000 implements MigrationInterface {
  name = 'MessageHeaders1765000000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE outbox ADD COLUMN headers jsonb`);
    await db.query(`ALTER TABLE webhook_queue ADD COLUMN headers jsonb`);
    await db.query(`ALTER TABLE events ADD COLUMN lane_headers jsonb`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE events DROP COLUMN lane_headers`);
    await db.query(`ALTER TABLE webhook_queue DROP COLUMN headers`);
    await db.query(`ALTER TABLE outbox DROP COLUMN headers`);
  }
}
