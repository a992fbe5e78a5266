import type { INestApplication } from '@nestjs/common';
import { verifyWebhook, WebhookVerificationError } from '@payhook/sdk';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from 'pg';
import request from 'supertest';
import { createMerchantApp, type MerchantApp } from '../../examples/merchant/src/merchant.app';
import { isolatedServices, type IsolatedServices } from '../support/isolated-services';
import { PaymentsApiHarness, paymentBody, type TestMerchant } from '../support/payments-api.harness';
import { pollUntil } from '../support/poll-until';
import { timeFor } from '../support/time-budget';
import { startDispatcher } from '../support/webhook-dispatcher.harness';
import { WebhookReceiver } from '../support/webhook-receiver';

/** How long the integration test run may take: its first attempt alone may wait the dispatcher's timeout and 20 s. */
const RUN_MS = 60_000;
// The longest test waits for one run and sends a few requests of its own.
jest.setTimeout(RUN_MS + timeFor({ request: 20 }));

/** Starting its own database, the API, a dispatcher and the example merchant. */
const START_WITH_SHOP_MS = timeFor({ database: 1, app: 3 });
/** Starting its own database, the API and a dispatcher. */
const START_MS = timeFor({ database: 1, app: 2 });

/** The example merchant from examples/merchant, next to payhook, as a newcomer would run it. */
describe('examples/merchant against payhook', () => {
  let services: IsolatedServices;
  let api: PaymentsApiHarness;
  let dispatcher: INestApplication;
  let merchant: TestMerchant;
  let shop: MerchantApp;
  let shopServer: Server;
  let shopDb: Client;
  let secret = '';

  beforeAll(async () => {
    services = await isolatedServices('example');
    [api, dispatcher] = await Promise.all([
      PaymentsApiHarness.start(services.env),
      startDispatcher({ ...services.env, WEBHOOK_RETRY_SCHEDULE: '1h' }),
    ]);
    merchant = await api.merchantWithKey('test');
    await api
      .admin()
      .post(`/admin/v1/merchants/${merchant.merchantId}/approve`)
      .send({ consoleEmail: `${merchant.merchantId}@shop.example`, consolePassword: 'correct horse battery' })
      .expect(200);
    // The shop keeps its own tables in its own database (here: this spec's database).
    shop = await createMerchantApp({
      payhookBaseUrl: api.baseUrl,
      apiKey: merchant.key,
      webhookSecret: () => secret,
      databaseUrl: services.env.DATABASE_URL,
      publicUrl: 'http://shop.test',
      logger: { log: () => undefined, warn: () => undefined, error: () => undefined },
    });
    shopServer = createServer(shop.app);
    await new Promise<void>((resolve) => shopServer.listen(0, '127.0.0.1', resolve));
    const webhookUrl = `http://127.0.0.1:${(shopServer.address() as AddressInfo).port}/webhooks`;
    const endpoint = await api.as(merchant).put('/v1/webhook-endpoint').send({ url: webhookUrl }).expect(200);
    secret = endpoint.body.data.signingSecret;
    shopDb = new Client({ connectionString: services.env.DATABASE_URL });
    await shopDb.connect();
  }, START_WITH_SHOP_MS);
  afterAll(async () => {
    await shopDb.end();
    await new Promise((resolve) => shopServer.close(resolve));
    await shop.close();
    await dispatcher.close();
    await api.stop();
    await services.drop();
  });

  it('passes the integration test, goes live, and then creates a live payment', async () => {
    const started = await api.as(merchant).post('/v1/integration-tests').expect(202);
    const run = await pollUntil(
      async () => (await api.as(merchant).get(`/v1/integration-tests/${started.body.data.id}`)).body.data,
      (data) => data.status !== 'running',
      { timeoutMs: RUN_MS, intervalMs: 200 },
    );
    expect(run.scenarios).toEqual([
      expect.objectContaining({ name: 'completion', status: 'passed' }),
      expect.objectContaining({ name: 'retries', status: 'passed' }),
      expect.objectContaining({ name: 'duplicates', status: 'passed' }),
      expect.objectContaining({ name: 'review', status: 'passed' }),
    ]);
    expect(run.status).toBe('passed');
    // Retries and duplicates were answered 200 but credited once.
    const credited = await shopDb.query(`SELECT count(*)::int AS n FROM credited_events`);
    expect(credited.rows[0].n).toBe(1);

    const { key: liveKey } = await api.issueKey(merchant.merchantId, 'live');
    const live = await api
      .as({ key: liveKey })
      .post('/v1/payments')
      .set('Idempotency-Key', 'first-live')
      .send(paymentBody())
      .expect(201);
    expect(live.body.data.status).toBe('pending');
    const listed = await api.as({ key: liveKey }).get('/v1/payments').expect(200);
    expect(listed.body.data.map((p: { id: string }) => p.id)).toEqual([live.body.data.id]);
  });

  it('sells an order: redirect to payUrl, pay, webhook credits the order once', async () => {
    const order = await request(shop.app)
      .post('/orders')
      .set('Accept', 'application/json')
      .send({ amount: 15000 })
      .expect(201);
    const { orderId, payUrl } = order.body as { orderId: string; payUrl: string };
    const redirect = await request(shop.app).post('/orders').send({ amount: 15000 });
    expect(redirect.status).toBe(303);
    expect(redirect.headers.location).toMatch(/\/p\//);

    const payments = await api.as(merchant).get(`/v1/payments?orderId=${orderId}`).expect(200);
    expect(payments.body.data[0].payUrl).toBe(payUrl);
    await api.as(merchant).post(`/v1/test-helpers/payments/${payments.body.data[0].id}/complete`).expect(200);
    const rows = await pollUntil(
      async () => (await shopDb.query(`SELECT status FROM orders WHERE id = $1`, [orderId])).rows,
      (found) => found[0]?.status === 'paid',
    );
    expect(rows).toHaveLength(1);
  });
});

describe('the SDK on real payhook deliveries', () => {
  let services: IsolatedServices;
  let api: PaymentsApiHarness;
  let dispatcher: INestApplication;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    services = await isolatedServices('sdk');
    [api, dispatcher, receiver] = await Promise.all([
      PaymentsApiHarness.start(services.env),
      startDispatcher(services.env),
      WebhookReceiver.start(),
    ]);
  }, START_MS);
  afterAll(async () => {
    await dispatcher.close();
    await api.stop();
    await receiver.stop();
    await services.drop();
  });

  it('verifies a real delivery and refuses a tampered body, a tampered header and a stale timestamp', async () => {
    const merchant = await api.merchantWithKey('test');
    const endpoint = await api.as(merchant).put('/v1/webhook-endpoint').send({ url: receiver.url }).expect(200);
    const secret = endpoint.body.data.signingSecret as string;
    const created = await api
      .as(merchant)
      .post('/v1/payments')
      .set('Idempotency-Key', 'sdk')
      .send(paymentBody())
      .expect(201);
    await api.as(merchant).post(`/v1/test-helpers/payments/${created.body.data.id}/complete`).expect(200);
    const [delivery] = await pollUntil(
      async () => receiver.received,
      (all) => all.length === 1,
    );
    const header = delivery.headers['service-signature'] as string;

    const event = verifyWebhook(delivery.rawBody, header, secret);
    expect(event).toMatchObject({ type: 'payment.completed', data: { paymentId: created.body.data.id } });

    const tamperedBody = Buffer.from(delivery.rawBody.toString().replace('"amount":15000', '"amount":15'));
    expect(() => verifyWebhook(tamperedBody, header, secret)).toThrow(WebhookVerificationError);
    const tamperedHeader = header.replace(/v1=(.)/, (_, c: string) => `v1=${c === 'a' ? 'b' : 'a'}`);
    expect(() => verifyWebhook(delivery.rawBody, tamperedHeader, secret)).toThrow(WebhookVerificationError);
    const t = Number(/t=(\d+)/.exec(header)![1]);
    expect(() => verifyWebhook(delivery.rawBody, header, secret, { nowSeconds: t + 301 })).toThrow(
      expect.objectContaining({ reason: 'timestamp_out_of_tolerance' }),
    );
  });
});
