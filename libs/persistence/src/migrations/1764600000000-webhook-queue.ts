import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The webhook queue on Postgres (WEBHOOK_QUEUE=postgres, local mode; ADR 0009): one row per message,
 * invisible until `visible_at` (a retry wait, or the lease of the dispatcher handling it), deleted
 * when acknowledged, kept with `dead_at` when dead-lettered. With RabbitMQ the table stays empty.
 */
export class WebhookQueue1764600000000 implements MigrationInterface {
  name = 'WebhookQueue1764600000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE webhook_queue (
        id bigserial PRIMARY KEY,
        pattern text NOT NULL,
        body text NOT NULL,
        visible_at timestamptz NOT NULL DEFAULT now(),
        backoffs integer NOT NULL DEFAULT 0,
        enqueued_at timestamptz NOT NULL DEFAULT now(),
        dead_at timestamptz,
        dead_reason text
      )`);
    // The claim reads due messages in visibility order; dead ones never come back to it.
    await db.query(`CREATE INDEX webhook_queue_due_idx ON webhook_queue (visible_at) WHERE dead_at IS NULL`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE webhook_queue`);
  }
}
