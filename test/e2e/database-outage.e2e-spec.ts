import { withDatabase } from '@payhook/persistence';
import type { Response } from 'supertest';
import { expectApiError, idemKey } from '../support/api-expectations';
import { isolatedServices, type IsolatedServices } from '../support/isolated-services';
import { PaymentsApiHarness, paymentBody, type TestMerchant } from '../support/payments-api.harness';
import { pollUntil } from '../support/poll-until';
import { TcpProxy } from '../support/tcp-proxy';

jest.setTimeout(60_000);

/**
 * A request that fails because Postgres is unreachable answers 503
 * service_unavailable with Retry-After, never 500, and the API recovers by itself. The API reaches
 * this spec's own database through a proxy that the test takes down and brings back.
 */
describe('a database outage under a running API', () => {
  let services: IsolatedServices;
  let proxy: TcpProxy;
  let api: PaymentsApiHarness;
  let merchant: TestMerchant;

  beforeAll(async () => {
    services = await isolatedServices('outage');
    const target = new URL(services.env.DATABASE_URL);
    proxy = new TcpProxy(target.hostname, Number(target.port || 5432));
    await proxy.up();
    const viaProxy = new URL(services.env.DATABASE_URL);
    viaProxy.host = `127.0.0.1:${proxy.port}`;
    api = await PaymentsApiHarness.start({
      ...services.env,
      DATABASE_URL: withDatabase(viaProxy.toString(), target.pathname.slice(1)),
    });
    merchant = await api.merchantWithKey('test');
  });
  afterAll(async () => {
    await proxy.up();
    await api.stop();
    await proxy.down();
    await services.drop();
  });

  const expectUnavailable = (response: Response) => {
    expectApiError(response, { status: 503, code: 'service_unavailable' });
    expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
  };

  it('answers 503 with Retry-After while Postgres is down, says so on /ready, and recovers by itself', async () => {
    const created = await api
      .as(merchant)
      .post('/v1/payments')
      .set('Idempotency-Key', idemKey())
      .send(paymentBody())
      .expect(201);
    const paymentId = created.body.data.id as string;

    await proxy.down();
    const key = idemKey();
    const body = paymentBody();
    const answers = await Promise.all([
      api.as(merchant).post('/v1/payments').set('Idempotency-Key', key).send(body),
      api.as(merchant).get('/v1/payments'),
      api.as(merchant).get(`/v1/payments/${paymentId}`),
      api.as(merchant).get('/v1/webhook-endpoint'),
      api
        .as(merchant)
        .post('/v1/events/recover')
        .send({ since: new Date(Date.now() - 60_000).toISOString() }),
      api.admin().post('/admin/v1/merchants').send({ name: 'During the outage' }),
    ]);
    for (const answer of answers) expectUnavailable(answer);

    const ready = await api.http().get('/ready');
    expect(ready.status).toBe(503);
    expect(ready.body.data).toMatchObject({ status: 'degraded', database: 'down' });

    await proxy.up();
    await pollUntil(
      async () => (await api.as(merchant).get('/v1/payments')).status,
      (status) => status === 200,
      { intervalMs: 200 },
    );
    // The create that got 503 changed nothing: the same key now creates the payment, once.
    await api.as(merchant).post('/v1/payments').set('Idempotency-Key', key).send(body).expect(201);
    const replay = await api.as(merchant).post('/v1/payments').set('Idempotency-Key', key).send(body).expect(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    const listed = await api
      .as(merchant)
      .get(`/v1/payments?orderId=${body.orderId as string}`)
      .expect(200);
    expect(listed.body.data).toHaveLength(1);
    expect((await api.http().get('/ready')).body.data.database).toBe('up');
  });
});
