import { Client } from 'pg';
import type { Response } from 'supertest';
import { expectApiError, idemKey } from '../support/api-expectations';
import { PaymentsApiHarness, paymentBody, type TestMerchant } from '../support/payments-api.harness';
import { pollUntil } from '../support/poll-until';
import { throwawayClusters, type Cluster, type ThrowawayClusters } from '../support/throwaway-clusters';
import { timeFor } from '../support/time-budget';

jest.setTimeout(timeFor({ database: 2, app: 2 }));

/**
 * The API on a DATABASE_URL that lists a streaming standby first and its primary second, on
 * clusters of the spec's own. The primary crashes: requests answer 503 with Retry-After (never
 * 500) until the standby is promoted, then the API writes there by itself, and a create retried
 * with its Idempotency-Key makes one payment.
 */
describe('the API through a database failover', () => {
  let clusters: ThrowawayClusters;
  let primary: Cluster;
  let standby: Cluster;
  let api: PaymentsApiHarness;
  let merchant: TestMerchant;

  beforeAll(async () => {
    clusters = throwawayClusters('api-failover');
    primary = await clusters.primary('primary');
    standby = await clusters.standby('standby', primary);
    api = await PaymentsApiHarness.start({
      DATABASE_URL: `postgres://postgres@127.0.0.1:${standby.port},127.0.0.1:${primary.port}/payhook_failover_test`,
      // The outbox's Postgres queue, so its LISTEN connection follows the failover too.
      WEBHOOK_QUEUE: 'postgres',
    });
    merchant = await api.merchantWithKey('test');
  });
  afterAll(async () => {
    await api?.stop();
    clusters?.remove();
  });

  const expectUnavailable = (response: Response) => {
    expectApiError(response, { status: 503, code: 'service_unavailable' });
    expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
  };
  const create = (key: string, body: Record<string, unknown>) =>
    api.as(merchant).post('/v1/payments').set('Idempotency-Key', key).send(body);

  it('answers 503 while no host takes writes and writes on the promoted standby by itself', async () => {
    const created = await create(idemKey(), paymentBody()).expect(201);
    const paymentId = created.body.data.id as string;
    // The standby has replayed the payment (and the merchant and key before it) before the primary
    // goes: replication here is asynchronous.
    await pollUntil(
      async () => {
        const onStandby = new Client({ connectionString: `${standby.url}/payhook_failover_test` });
        onStandby.on('error', () => undefined);
        try {
          await onStandby.connect();
          return (await onStandby.query<{ rows: number }>('SELECT count(*)::int AS rows FROM payments')).rows[0].rows;
        } catch {
          return -1; // the database or its tables not replayed yet
        } finally {
          await onStandby.end().catch(() => undefined);
        }
      },
      (rows) => rows === 1,
    );

    clusters.stop(primary, 'immediate');
    const key = idemKey();
    const body = paymentBody();
    for (const answer of await Promise.all([
      create(key, body),
      api.as(merchant).get('/v1/payments'),
      api.as(merchant).get(`/v1/payments/${paymentId}`),
    ])) {
      expectUnavailable(answer);
    }
    const ready = await api.http().get('/ready');
    expect(ready.status).toBe(503);
    expect(ready.body.data).toMatchObject({ database: 'down' });

    clusters.promote(standby);
    // Until the API finds the new primary, the merchant's retries of the create answer 503, never 500.
    const retried = await pollUntil(
      async () => {
        const answer = await create(key, body);
        if (answer.status !== 201) expectUnavailable(answer);
        return answer;
      },
      (answer) => answer.status === 201,
      { intervalMs: 100 },
    );
    const replay = await create(key, body).expect(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body.data.id).toBe(retried.body.data.id);
    const listed = await api
      .as(merchant)
      .get(`/v1/payments?orderId=${body.orderId as string}`)
      .expect(200);
    expect(listed.body.data).toHaveLength(1);
    await api.as(merchant).get(`/v1/payments/${paymentId}`).expect(200);
    expect((await api.http().get('/ready')).body.data.database).toBe('up');
  });
});
