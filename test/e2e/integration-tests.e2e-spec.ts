import type { INestApplication } from '@nestjs/common';
import { Webhook } from 'standardwebhooks';
import { isolatedServices, type IsolatedServices } from '../support/isolated-services';
import { merchantEndpoint, type EndpointFlaw } from '../support/merchant-endpoint';
import { PaymentsApiHarness, paymentBody } from '../support/payments-api.harness';
import { pollUntil } from '../support/poll-until';
import { timeFor } from '../support/time-budget';
import { STOPPED_DETAIL } from '../../apps/payments-api/src/webhooks/integration-tests/integration-test.runner';
import { startDispatcher } from '../support/webhook-dispatcher.harness';
import { standardWebhookHeaders, WebhookReceiver } from '../support/webhook-receiver';

/**
 * The sender's limit: a correct endpoint answers far within it even on a busy machine (the apps and
 * the receiver share this one test process); the `slow` flaw overruns it.
 */
const TIMEOUT_MS = 5_000;
/** A whole run at most: the runner's wait for the first attempt (the timeout and 20 s), three more sends, slack. */
const RUN_MS = TIMEOUT_MS + 20_000 + 3 * TIMEOUT_MS + 10_000;

/** Starting its own database and two apps. */
const START_MS = timeFor({ database: 1, app: 2 });
// Each test waits for one run and sends a few requests of its own.
jest.setTimeout(RUN_MS + timeFor({ request: 20 }));

describe('integration test (onboarding gate)', () => {
  let api: PaymentsApiHarness;
  let dispatcher: INestApplication;

  let services: IsolatedServices;

  beforeAll(async () => {
    // Its own database and namespace: only this dispatcher, with this timeout, may deliver here.
    services = await isolatedServices('itest');
    [api, dispatcher] = await Promise.all([
      PaymentsApiHarness.start({ ...services.env, WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS) }),
      startDispatcher({ ...services.env, WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS), WEBHOOK_RETRY_SCHEDULE: '1h' }),
    ]);
  }, START_MS);
  afterAll(async () => {
    await dispatcher.close();
    await api.stop();
    await services.drop();
  });

  async function approvedMerchantWith(flaw?: EndpointFlaw) {
    const merchant = await api.merchantWithKey('test');
    await api
      .admin()
      .post(`/admin/v1/merchants/${merchant.merchantId}/approve`)
      .send({ consoleEmail: `${merchant.merchantId}@shop.example`, consolePassword: 'correct horse battery' })
      .expect(200);
    const receiver = await WebhookReceiver.start();
    let secret = '';
    receiver.respondWith(merchantEndpoint(() => secret, flaw, TIMEOUT_MS));
    const endpoint = await api.as(merchant).put('/v1/webhook-endpoint').send({ url: receiver.url }).expect(200);
    secret = endpoint.body.data.signingSecret;
    return { merchant, receiver, secret };
  }

  async function runToEnd(key: string) {
    const started = await api.as({ key }).post('/v1/integration-tests').expect(202);
    expect(started.body.data).toEqual({ id: expect.stringMatching(/^itr_/), status: 'running' });
    const run = await pollUntil(
      async () => (await api.as({ key }).get(`/v1/integration-tests/${started.body.data.id}`).expect(200)).body.data,
      (data) => data.status !== 'running',
      { timeoutMs: RUN_MS, intervalMs: 200 },
    );
    return run as { status: string; scenarios: { name: string; status: string; detail: string }[]; finishedAt: string };
  }

  it('passes a correct merchant, which then goes live and creates live payments', async () => {
    const { merchant, receiver, secret } = await approvedMerchantWith();
    const run = await runToEnd(merchant.key);
    expect(run.scenarios.map((s) => [s.name, s.status])).toEqual([
      ['completion', 'passed'],
      ['retries', 'passed'],
      ['duplicates', 'passed'],
      ['review', 'passed'],
    ]);
    expect(run.status).toBe('passed');
    // The genuine deliveries (the dispatcher's first, then the runner's retry and two duplicates) carry the
    // Standard Webhooks headers too; the review's forged ones carry the Service headers only.
    const eventId = receiver.received[0].headers['service-event-id'] as string;
    const genuine = receiver.forEvent(eventId);
    expect(genuine).toHaveLength(4);
    for (const delivery of genuine) {
      expect(new Webhook(secret).verify(delivery.rawBody, standardWebhookHeaders(delivery))).toMatchObject({
        id: eventId,
      });
    }
    const forged = receiver.received.filter((delivery) => !genuine.includes(delivery));
    expect(forged).toHaveLength(7);
    expect(forged.map(standardWebhookHeaders)).toEqual(forged.map(() => ({})));
    expect(run.finishedAt).toEqual(expect.any(String));
    const shown = await api.admin().get(`/admin/v1/merchants/${merchant.merchantId}`).expect(200);
    expect(shown.body.data.status).toBe('live');
    expect(shown.body.data.latestIntegrationTest).toMatchObject({ status: 'passed' });

    const { key: liveKey } = await api.issueKey(merchant.merchantId, 'live');
    await api
      .as({ key: liveKey })
      .post('/v1/payments')
      .set('Idempotency-Key', 'first-live')
      .send(paymentBody())
      .expect(201);
    await receiver.stop();
  });

  it.each([
    ['any-signature', 'review', /wrong signature/],
    ['no-timestamp-check', 'review', /timestamp 10 minutes old/],
    ['duplicate-500', 'retries', /HTTP 500/],
    ['slow', 'completion', /timeout/],
  ] as const)('fails a merchant whose endpoint has the flaw %s in the %s scenario', async (flaw, scenario, detail) => {
    const { merchant, receiver } = await approvedMerchantWith(flaw);
    const run = await runToEnd(merchant.key);
    expect(run.status).toBe('failed');
    const failed = run.scenarios.find((s) => s.name === scenario)!;
    expect(failed.status).toBe('failed');
    expect(failed.detail).toMatch(detail);
    const shown = await api.admin().get(`/admin/v1/merchants/${merchant.merchantId}`).expect(200);
    expect(shown.body.data.status).toBe('integrating');
    const { key: liveKey } = await api.issueKey(merchant.merchantId, 'live');
    const locked = await api.as({ key: liveKey }).post('/v1/payments').set('Idempotency-Key', 'x').send(paymentBody());
    expect(locked.status).toBe(403);
    expect(locked.body.error.code).toBe('live_mode_locked');
    await receiver.stop();
  });

  it("judges the oldest endpoint by its own delivery, not by another endpoint's", async () => {
    const { merchant, receiver } = await approvedMerchantWith();
    receiver.respondWith(() => ({ status: 500, body: 'down' }));
    // A second endpoint that answers every event with 200 proves nothing about the oldest one.
    const bin = await WebhookReceiver.start();
    await api.as(merchant).post('/v1/webhook-endpoints').send({ url: bin.url }).expect(201);
    const run = await runToEnd(merchant.key);
    expect(run.status).toBe('failed');
    expect(run.scenarios[0]).toMatchObject({ name: 'completion', status: 'failed' });
    expect(run.scenarios[0].detail).toMatch(/HTTP 500/);
    expect(bin.received.length).toBeGreaterThan(0);
    await Promise.all([receiver.stop(), bin.stop()]);
  });

  it('is for test keys only', async () => {
    const merchant = await api.merchantWithKey('live');
    const refused = await api.as(merchant).post('/v1/integration-tests').expect(403);
    expect(refused.body.error.code).toBe('test_mode_only');
  });

  it('ends a run in flight as failed when its API stops, so the merchant may start another at once', async () => {
    // A second API on the same database, stopped while its run waits on the slow endpoint.
    const stopping = await PaymentsApiHarness.start({ ...services.env, WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS) });
    const { merchant, receiver } = await approvedMerchantWith('slow');
    let runId: string;
    try {
      runId = (await stopping.as(merchant).post('/v1/integration-tests').expect(202)).body.data.id;
    } finally {
      await stopping.stop();
    }
    const run = (await api.as(merchant).get(`/v1/integration-tests/${runId}`).expect(200)).body.data as Awaited<
      ReturnType<typeof runToEnd>
    >;
    expect(run.status).toBe('failed');
    expect(run.finishedAt).toEqual(expect.any(String));
    expect(run.scenarios.map((scenario) => scenario.status)).toEqual(['failed', 'failed', 'failed', 'failed']);
    // Every request to the slow endpoint takes the sender's whole timeout: the last scenario was never reached.
    expect(run.scenarios[3]).toMatchObject({ name: 'review', detail: STOPPED_DETAIL });

    const again = await api.as(merchant).post('/v1/integration-tests').expect(202);
    expect(again.body.data).toEqual({ id: expect.not.stringMatching(runId), status: 'running' });
    await receiver.stop();
  });

  it('fails completion with a clear reason when no test endpoint is set', async () => {
    const merchant = await api.merchantWithKey('test');
    const run = await runToEnd(merchant.key);
    expect(run.status).toBe('failed');
    expect(run.scenarios[0]).toMatchObject({ name: 'completion', status: 'failed' });
    expect(run.scenarios[0].detail).toContain('PUT /v1/webhook-endpoint');
  });
});
