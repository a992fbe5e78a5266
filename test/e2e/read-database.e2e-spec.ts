import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import type { Response } from 'supertest';
import { expectApiError } from '../support/api-expectations';
import { ConsoleClient, approvedMerchant, postLogin, setCookie } from '../support/console-client';
import { isolatedServices, type IsolatedServices } from '../support/isolated-services';
import { PaymentsApiHarness, paymentBody, type TestMerchant } from '../support/payments-api.harness';
import { pollUntil } from '../support/poll-until';
import { TcpProxy } from '../support/tcp-proxy';
import { createPayment } from '../support/webhook-scenario';

jest.setTimeout(60_000);

/** The application_name of the API's primary pool (apps/payments-api/src/payments-api.module.ts). */
const PRIMARY = 'payhook-payments-api';
/** The read pool's, as its URL names it. */
const READ = 'payhook_read';

/** The statements of the list paths and of lookups by id, as pg_stat_activity shows them. */
const LIST_PAYMENTS =
  /FROM payments WHERE merchant_id = \$1 AND livemode = \$2.*ORDER BY created_at DESC, id DESC LIMIT/s;
const LIST_EVENTS =
  /FROM events e .*WHERE e\.merchant_id = \$1 AND e\.livemode = \$2\s+ORDER BY e\.created_at DESC, e\.id DESC LIMIT/s;
const LIST_SETTLEMENTS =
  /FROM settlements WHERE merchant_id = \$1 AND livemode = \$2.*ORDER BY settlements\.sales_date/s;
const LIST_REVIEWS = /FROM review_cases r .*ORDER BY r\.created_at DESC/s;
const BY_ID = /WHERE id = \$1 AND merchant_id = \$2 AND livemode = \$3/;
const EVENT_BY_ID = /WHERE e\.id = \$1 AND e\.merchant_id = \$2 AND e\.livemode = \$3/;

/**
 * DATABASE_READ_URL (docs/scaling.md, "Read replicas"): the read-only lists run on a pool of their
 * own, everything else on DATABASE_URL; unset, there is one pool. The read URL here is the same
 * database with its own application_name, and read-only sessions as on a streaming replica, so a
 * write sent there would fail. This spec's database is its own: it locks whole tables.
 */
describe('DATABASE_READ_URL', () => {
  let services: IsolatedServices;

  beforeAll(async () => {
    services = await isolatedServices('read_pool');
  });
  afterAll(() => services.drop());

  /** DATABASE_URL with another application_name, in read-only sessions (like a hot standby). */
  const readUrlOf = (databaseUrl: string) => {
    const url = new URL(databaseUrl);
    url.searchParams.set('application_name', READ);
    url.searchParams.set('options', '-c default_transaction_read_only=on');
    return url.toString();
  };

  describe('unset', () => {
    let api: PaymentsApiHarness;

    beforeAll(async () => {
      api = await PaymentsApiHarness.start(services.env);
    });
    afterAll(() => api.stop());

    it('runs the lists on the one pool of DATABASE_URL and opens no second one', async () => {
      const merchant = await api.merchantWithKey('test');
      const listed = await connectionOf(api, 'payments', LIST_PAYMENTS, () => api.as(merchant).get('/v1/payments'));
      expect(listed).toEqual({ applicationName: PRIMARY, status: 200 });

      const names = await api.sql<{ application_name: string }>(
        `SELECT DISTINCT application_name FROM pg_stat_activity
         WHERE datname = current_database() AND application_name LIKE 'payhook%'`,
      );
      expect(names.map((row) => row.application_name).filter((name) => name.startsWith(PRIMARY))).toEqual([PRIMARY]);
      expect((await api.http().get('/ready').expect(200)).body.data).not.toHaveProperty('readDatabase');
    });
  });

  describe('on a reachable database', () => {
    let api: PaymentsApiHarness;
    let merchant: TestMerchant;
    let paymentId: string;
    let eventId: string;
    let salesDate: string;
    let consoleClient: ConsoleClient;
    let stopped = false;

    beforeAll(async () => {
      api = await PaymentsApiHarness.start({
        ...services.env,
        DATABASE_READ_URL: readUrlOf(services.env.DATABASE_URL),
      });
      const shop = await approvedMerchant(api);
      merchant = { merchantId: shop.merchantId, key: shop.key, keyId: shop.keyId };
      consoleClient = await ConsoleClient.login(api, shop.email);
      paymentId = await createPayment(api, merchant);
      await api.as(merchant).post(`/v1/test-helpers/payments/${paymentId}/complete`).expect(200);
      const [row] = await api.sql<{ id: string; sales_date: string }>(
        `SELECT e.id, to_char(s.sales_date, 'YYYY-MM-DD') AS sales_date
         FROM events e JOIN settlements s ON s.payment_id = e.payment_id WHERE e.payment_id = $1`,
        [paymentId],
      );
      [eventId, salesDate] = [row.id, row.sales_date];
    });

    it('opens the read pool at start', async () => {
      // The pool is opened at start and kept: its connection outlives the start (idle timeout 10 s).
      await expect(readConnections(api)).resolves.toBeGreaterThan(0);
    });

    const reads: [string, string, RegExp, () => Promise<Response>][] = [
      ['GET /v1/payments', 'payments', LIST_PAYMENTS, () => api.as(merchant).get('/v1/payments')],
      ['GET /v1/events', 'events', LIST_EVENTS, () => api.as(merchant).get('/v1/events')],
      ['GET /v1/settlements', 'settlements', LIST_SETTLEMENTS, () => api.as(merchant).get('/v1/settlements')],
      [
        'GET /v1/settlements/export',
        'settlements',
        LIST_SETTLEMENTS,
        () => api.as(merchant).get(`/v1/settlements/export?date=${salesDate}`),
      ],
      ['GET /admin/v1/reviews', 'review_cases', LIST_REVIEWS, () => api.admin().get('/admin/v1/reviews')],
      ['console payments list', 'payments', LIST_PAYMENTS, () => consoleClient.get('/console/payments')],
      [
        'console payments search',
        'payments',
        LIST_PAYMENTS,
        () => consoleClient.get('/console/payments?status=completed&customerId=customer-1'),
      ],
      ['console settlements', 'settlements', LIST_SETTLEMENTS, () => consoleClient.get('/console/settlements')],
      [
        'console settlements CSV',
        'settlements',
        LIST_SETTLEMENTS,
        () => consoleClient.get(`/console/settlements/export?date=${salesDate}`),
      ],
    ];
    it.each(reads)('%s reads on the read pool', async (_name, table, statement, send) => {
      await expect(connectionOf(api, table, statement, send)).resolves.toEqual({ applicationName: READ, status: 200 });
    });

    const primaries: [string, string, RegExp, () => Promise<Response>][] = [
      [
        'POST /v1/payments',
        'payments',
        // pg_stat_activity keeps the first 1 KB of a statement: the key claim comes before the insert.
        /INSERT INTO idempotency_keys/,
        () => api.as(merchant).post('/v1/payments').set('Idempotency-Key', randomUUID()).send(paymentBody()),
      ],
      ['GET /v1/payments/{id}', 'payments', BY_ID, () => api.as(merchant).get(`/v1/payments/${paymentId}`)],
      ['GET /v1/events/{id}', 'events', EVENT_BY_ID, () => api.as(merchant).get(`/v1/events/${eventId}`)],
      ['console payment page', 'events', /payment_id = \$3/, () => consoleClient.get(`/console/payments/${paymentId}`)],
    ];
    it.each(primaries)('%s runs on the primary', async (_name, table, statement, send) => {
      const { applicationName } = await connectionOf(api, table, statement, send);
      expect(applicationName).toBe(PRIMARY);
    });

    // Any replica's page names a row the primary has; the page itself is a list (read pool, above).
    it('checks a list cursor on the primary', async () => {
      for (let i = 0; i < 2; i += 1) {
        await api
          .as(merchant)
          .post('/v1/payments')
          .set('Idempotency-Key', randomUUID())
          .send(paymentBody())
          .expect(201);
      }
      const first = await api.as(merchant).get('/v1/payments?limit=1').expect(200);
      const next = `/v1/payments?limit=1&cursor=${first.body.nextCursor as string}`;
      const cursorCheck = await connectionOf(api, 'payments', /created_at = \$4/, () => api.as(merchant).get(next));
      expect(cursorCheck).toEqual({ applicationName: PRIMARY, status: 200 });
      const page = await api.as(merchant).get(next).expect(200);
      expect(page.body.data[0].id).not.toBe(first.body.data[0].id);
    });

    // Last of this block: it stops the API.
    it('reports the read database on /ready and closes its pool on stop', async () => {
      const ready = await api.http().get('/ready').expect(200);
      expect(ready.body.data).toEqual({ status: 'ok', database: 'up', broker: 'up', readDatabase: 'up' });

      const observer = new Client({ connectionString: services.env.DATABASE_URL });
      await observer.connect();
      try {
        stopped = true;
        await api.stop();
        const count = async () =>
          (
            await observer.query<{ n: number }>(
              `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1`,
              [READ],
            )
          ).rows[0].n;
        await pollUntil(count, (n) => n === 0);
      } finally {
        await observer.end();
      }
    });

    afterAll(async () => {
      if (!stopped) await api.stop();
    });
  });

  describe('on a database that does not answer', () => {
    let proxy: TcpProxy;
    let api: PaymentsApiHarness;
    let merchant: TestMerchant;
    let consoleCookie: string;

    beforeAll(async () => {
      // A proxy to the same database, down: its port refuses connections until the test brings it up.
      const target = new URL(services.env.DATABASE_URL);
      proxy = new TcpProxy(target.hostname, Number(target.port || 5432));
      await proxy.up();
      await proxy.down();
      const viaProxy = new URL(readUrlOf(services.env.DATABASE_URL));
      viaProxy.host = `127.0.0.1:${proxy.port}`;
      // The start warns that the read database does not answer; only errors are of interest here.
      api = await PaymentsApiHarness.start({ ...services.env, DATABASE_READ_URL: viaProxy.toString() }, ['error']);
      const shop = await approvedMerchant(api);
      merchant = { merchantId: shop.merchantId, key: shop.key, keyId: shop.keyId };
      // ConsoleClient.login opens the payments list, which is down: sign in with the form alone.
      consoleCookie = setCookie(
        await postLogin(api, shop.email, 'correct horse battery staple', 303),
        'payhook_console',
      )!;
      consoleCookie = consoleCookie.split(';')[0];
    });
    afterAll(async () => {
      await api.stop();
      await proxy.down();
    });

    it('answers 503 with Retry-After on the lists only, and serves them once it answers again', async () => {
      const paymentId = await createPayment(api, merchant);
      await api.as(merchant).get(`/v1/payments/${paymentId}`).expect(200);
      await api.as(merchant).post(`/v1/test-helpers/payments/${paymentId}/complete`).expect(200);

      const lists = await Promise.all([
        api.as(merchant).get('/v1/payments'),
        api.as(merchant).get('/v1/events'),
        api.as(merchant).get('/v1/settlements'),
        api.as(merchant).get('/v1/settlements/export?date=2026-01-02'),
        api.admin().get('/admin/v1/reviews'),
      ]);
      for (const answer of lists) {
        expectApiError(answer, { status: 503, code: 'service_unavailable' });
        expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
      }
      for (const page of ['/console/payments', '/console/settlements']) {
        const answer = await api.inEnglish().get(page).set('Cookie', consoleCookie);
        expect(answer.status).toBe(503);
        expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
        expect(answer.text).toContain('briefly unavailable');
      }
      // The payment page reads the primary only.
      await api.http().get(`/console/payments/${paymentId}`).set('Cookie', consoleCookie).expect(200);

      await api.http().get('/health').expect(200);
      const ready = await api.http().get('/ready').expect(503);
      expect(ready.body.data).toEqual({ status: 'degraded', database: 'up', broker: 'up', readDatabase: 'down' });

      await proxy.up();
      const listed = await pollUntil(
        () => api.as(merchant).get('/v1/payments'),
        (answer) => answer.status === 200,
        { intervalMs: 200 },
      );
      expect(listed.body.data.map((payment: { id: string }) => payment.id)).toEqual([paymentId]);
      expect((await api.http().get('/ready').expect(200)).body.data.readDatabase).toBe('up');
    });
  });
});

/** Connections of the read pool to this database. */
async function readConnections(api: PaymentsApiHarness): Promise<number> {
  const [row] = await api.sql<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1`,
    [READ],
  );
  return row.n;
}

/**
 * Which pool runs the statement a request makes on `table`, by application_name. The test holds an
 * exclusive lock on the table, so the statement waits where pg_stat_activity shows it with its
 * connection's name, until the test lets it go; nothing depends on timing.
 */
async function connectionOf(
  api: PaymentsApiHarness,
  table: string,
  statement: RegExp,
  send: () => PromiseLike<Response>,
): Promise<{ applicationName: string; status: number }> {
  const locker = new Client({ connectionString: api.env.DATABASE_URL, application_name: 'payhook-tests-lock' });
  await locker.connect();
  let answer: Promise<Response> | undefined;
  try {
    await locker.query('BEGIN');
    await locker.query(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
    answer = Promise.resolve(send());
    // Polled on the harness's own connection: a transaction sees one snapshot of pg_stat_activity.
    const [waiting] = await pollUntil(
      async () =>
        (
          await api.sql<{ application_name: string; query: string }>(
            `SELECT application_name, query FROM pg_stat_activity
             WHERE datname = current_database() AND wait_event_type = 'Lock'`,
          )
        ).filter((row) => statement.test(row.query)),
      (rows) => rows.length > 0,
    );
    await locker.query('ROLLBACK');
    return { applicationName: waiting.application_name, status: (await answer).status };
  } finally {
    // Ends the lock too when the poll failed; the request then finishes before the next test.
    await locker.end();
    await answer?.catch(() => undefined);
  }
}
