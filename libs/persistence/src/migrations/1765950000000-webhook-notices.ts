import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Notices to a merchant's owners about an endpoint in trouble. The dispatcher
 * writes a row in the statement that changes the endpoint's health; the API's sender e-mails it and
 * marks it sent. The unique key is the endpoint, the episode (the `failing_since` it is about) and the
 * change, so each change of an episode is written once, however many attempts or instances see it.
 */
export class WebhookNotices1765950000000 implements MigrationInterface {
  name = 'WebhookNotices1765950000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE webhook_notices (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        -- No reference: a deleted endpoint's notices still go out (and stay as history).
        endpoint_id text NOT NULL,
        merchant_id text NOT NULL REFERENCES merchants (id),
        livemode boolean NOT NULL,
        kind text NOT NULL CHECK (kind IN ('failing', 'disabled', 'recovered')),
        -- The endpoint's failing_since when the episode began: the same for its failing, disabled and
        -- recovered notices.
        episode timestamptz NOT NULL,
        url text NOT NULL,
        last_error text,
        created_at timestamptz NOT NULL DEFAULT now(),
        -- When the sender may (next) try it: now for a new row; a claim moves it past its lease.
        send_after timestamptz NOT NULL DEFAULT now(),
        send_attempts integer NOT NULL DEFAULT 0,
        last_send_error text,
        sent_at timestamptz,
        UNIQUE (endpoint_id, episode, kind)
      )`);
    // The sender's claim reads unsent notices only, due first.
    await db.query(`CREATE INDEX webhook_notices_unsent_idx ON webhook_notices (send_after) WHERE sent_at IS NULL`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE webhook_notices`);
  }
}
