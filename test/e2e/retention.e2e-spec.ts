import type { INestApplication } from '@nestjs/common';
import { OutboxPurger } from '../../apps/payments-api/src/webhooks/outbox/outbox.purger';
import { WebhookAttemptsPurger } from '../../apps/webhook-dispatcher/src/attempts/webhook-attempts.purger';
import { isolatedServices, type IsolatedServices } from '../support/isolated-services';
import { PaymentsApiHarness } from '../support/payments-api.harness';
import { startDispatcher } from '../support/webhook-dispatcher.harness';
import { completedPayment, getEvent } from '../support/webhook-scenario';

jest.setTimeout(60_000);

/** WEBHOOK_ATTEMPT_RETENTION and OUTBOX_RETENTION: history is purged, payments and events never. */
describe('retention of attempts and published outbox rows', () => {
  let services: IsolatedServices;
  let api: PaymentsApiHarness;
  // The dispatcher owns webhook_attempts, their purge included.
  let dispatcher: INestApplication;

  beforeAll(async () => {
    services = await isolatedServices('retention');
    api = await PaymentsApiHarness.start({ ...services.env, OUTBOX_RETENTION: '1h' });
    dispatcher = await startDispatcher({ ...services.env, WEBHOOK_ATTEMPT_RETENTION: '30d' });
  });
  afterAll(async () => {
    await dispatcher?.close();
    await api?.stop();
    await services?.drop();
  });

  it('purges attempts past the retention and keeps newer ones, the event and the payment', async () => {
    const merchant = await api.merchantWithKey('test');
    const { paymentId, eventId } = await completedPayment(api, merchant);
    // 2,500 attempts: more than one purge batch.
    await api.sql(
      `INSERT INTO webhook_attempts (id, event_id, number, url, started_at, duration_ms, response_status)
       SELECT 'att_retention' || lpad(n::text, 12, '0'), $1, n, 'https://shop.example/hooks',
              now() - interval '31 days' - n * interval '1 second', 20, 500
       FROM generate_series(1, 2500) n`,
      [eventId],
    );
    await api.sql(
      `INSERT INTO webhook_attempts (id, event_id, number, url, started_at, duration_ms, response_status)
       VALUES ('att_retentionrecent000001', $1, 9999, 'https://shop.example/hooks', now() - interval '29 days', 20, 200)`,
      [eventId],
    );

    await dispatcher.get(WebhookAttemptsPurger).runOnce();

    const attempts = (await getEvent(api, merchant, eventId)).attempts;
    expect(attempts.map((attempt) => attempt.number)).toEqual([9999]);
    await api.as(merchant).get(`/v1/payments/${paymentId}`).expect(200);
  });

  it('purges published outbox rows past the retention, never unpublished ones', async () => {
    const [old, recent, unpublished] = await api.sql<{ id: string }>(
      `INSERT INTO outbox (routing_key, message_type, payload, created_at, published_at)
       VALUES ('retention.test', 'test', '{}', now() - interval '2 hours', now() - interval '2 hours'),
              ('retention.test', 'test', '{}', now() - interval '10 minutes', now() - interval '10 minutes'),
              ('retention.test', 'test', '{}', now() - interval '2 hours', NULL)
       RETURNING id`,
    );
    // The relay may publish the third row meanwhile; it is then published just now, and kept either way.
    await api.app.get(OutboxPurger).runOnce();
    const left = await api.sql<{ id: string }>(`SELECT id FROM outbox WHERE routing_key = 'retention.test'`);
    const ids = left.map((row) => row.id);
    expect(ids).not.toContain(old.id);
    expect(ids).toContain(recent.id);
    expect(ids).toContain(unpublished.id);
  });
});
