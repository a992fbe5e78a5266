#!/usr/bin/env node
// Optional, not part of the tests: payhook with DATABASE_READ_URL on a real streaming replica
// (docs/scaling.md, "Read replicas"). Run: npm run build && node bench/replica.mjs
//
// Makes a throwaway primary cluster and a hot standby of it (pg_basebackup -R) in a temp directory,
// on free ports; the shared Postgres of the tests is not touched (its pg_hba allows no replication).
// Starts the built payments-api on them (WEBHOOK_QUEUE=postgres: no broker), then REPLICA_PAYMENTS
// (200) times creates a payment, reads it by id at once (must be 200, from the primary), and polls
// the list (the replica) until it shows the payment: the list-after-create lag, reported as
// percentiles. Then it stops the standby: the list must answer 503 with Retry-After while create
// and get still work; and starts it again: the list must come back by itself. Exits non-zero on any
// other answer. Needs initdb, pg_ctl and pg_basebackup (PG_BIN, else `pg_config --bindir`); run as
// root, it runs them as the postgres user.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { apiClient, freePort, sleep, startApp, stopApp } from './harness.mjs';
import { pgTool, throwawayPostgres } from './throwaway-postgres.mjs';

const PAYMENTS = Number(process.env.REPLICA_PAYMENTS ?? 200);
const ADMIN = 'replica-admin-token-0123456789abcdef';
const log = (line) => console.log(`[replica] ${line}`);

const clusters = await throwawayPostgres('replica');
let api;
try {
  // initdb's pg_hba trusts local replication connections; wal_level is replica by default.
  const primary = await clusters.primary();
  const standby = await clusters.node('standby');
  pgTool(
    'pg_basebackup',
    '-h',
    '127.0.0.1',
    '-p',
    String(primary.port),
    '-U',
    'postgres',
    '-D',
    standby.data,
    '-R',
    '-X',
    'stream',
  );
  clusters.start(standby);
  log(`primary on ${primary.port}, hot standby on ${standby.port} (${clusters.dir})`);
  // The API creates its database on the primary; made here first, the standby has it before the API
  // opens its read pool (a read URL naming a database the standby lacks stops the start).
  const primaryAdmin = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${primary.port}/postgres` });
  await primaryAdmin.connect();
  await primaryAdmin.query('CREATE DATABASE payhook');
  await primaryAdmin.end();
  for (let tries = 0; ; tries += 1) {
    const probe = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${standby.port}/payhook` });
    const replayed = await probe.connect().then(
      () => true,
      () => false,
    );
    await probe.end().catch(() => undefined);
    if (replayed) break;
    if (tries > 100) throw new Error('the standby did not replay CREATE DATABASE within 10 s');
    await sleep(100);
  }

  const apiPort = await freePort();
  const base = `http://127.0.0.1:${apiPort}`;
  api = await startApp(
    'payments-api',
    {
      DATABASE_URL: `postgres://postgres@127.0.0.1:${primary.port}/payhook`,
      DATABASE_READ_URL: `postgres://postgres@127.0.0.1:${standby.port}/payhook`,
      WEBHOOK_QUEUE: 'postgres',
      PORT: String(apiPort),
      ADMIN_TOKEN: ADMIN,
      RATE_LIMIT_PER_SECOND: '0',
      NODE_ENV: 'development',
    },
    `${base}/health`,
  );
  const client = apiClient(base);
  const admin = { authorization: `Bearer ${ADMIN}` };
  const merchant = await client.call('POST', '/admin/v1/merchants', { name: 'Replica Shop' }, admin);
  const key = await client.call(
    'POST',
    `/admin/v1/merchants/${merchant.body.data.id}/api-keys`,
    { mode: 'test' },
    admin,
  );
  const auth = { authorization: `Bearer ${key.body.data.key}` };
  const create = () =>
    client.call(
      'POST',
      '/v1/payments',
      {
        orderId: `o-${randomUUID()}`,
        customerId: 'c-1',
        amount: 1000,
        currency: 'KRW',
        returnUrl: 'https://shop.example/r',
      },
      { ...auth, 'idempotency-key': randomUUID() },
    );
  const expect = (what, actual, wanted) => {
    if (actual !== wanted) throw new Error(`${what}: ${actual}, expected ${wanted}`);
  };

  const ready = await client.call('GET', '/ready');
  expect('/ready readDatabase', ready.body.data.readDatabase, 'up');

  const lags = [];
  let firstPageMisses = 0;
  for (let i = 0; i < PAYMENTS; i += 1) {
    const created = await create();
    expect('create', created.status, 201);
    const at = performance.now();
    const id = created.body.data.id;
    expect(
      'GET by id right after create',
      (await client.call('GET', `/v1/payments/${id}`, undefined, auth)).status,
      200,
    );
    for (let tries = 0; ; tries += 1) {
      const list = await client.call('GET', '/v1/payments?limit=1', undefined, auth);
      expect('list', list.status, 200);
      if (list.body.data[0]?.id === id) break;
      if (tries === 0) firstPageMisses += 1;
      if (performance.now() - at > 10_000) throw new Error(`${id} not in the replica's list after 10 s`);
    }
    lags.push(performance.now() - at);
  }
  lags.sort((a, b) => a - b);
  const pct = (p) => lags[Math.min(lags.length - 1, Math.floor((p / 100) * lags.length))].toFixed(1);
  log(
    `list-after-create on the replica, ${PAYMENTS} payments: p50 ${pct(50)} ms, p99 ${pct(99)} ms, max ${pct(100)} ms ` +
      `(GET by id was 200 every time; the first list read missed the new payment ${firstPageMisses} times)`,
  );

  clusters.stop(standby);
  const down = await fetch(`${base}/v1/payments`, { headers: auth });
  expect('list while the standby is down', down.status, 503);
  expect('its Retry-After', down.headers.get('retry-after') !== null, true);
  expect('its code', (await down.json()).error.code, 'service_unavailable');
  const during = await create();
  expect('create while the standby is down', during.status, 201);
  expect(
    'get while the standby is down',
    (await client.call('GET', `/v1/payments/${during.body.data.id}`, undefined, auth)).status,
    200,
  );
  expect('/ready while the standby is down', (await client.call('GET', '/ready')).status, 503);
  clusters.start(standby);
  for (let tries = 0; (await client.call('GET', '/v1/payments', undefined, auth)).status !== 200; tries += 1) {
    if (tries > 100) throw new Error('the list did not come back after the standby started again');
    await sleep(100);
  }
  log('standby down: lists 503 with Retry-After, create and get 201/200; standby back: lists 200 again');
  await client.close();
} finally {
  if (api) await stopApp(api);
  clusters.remove();
}
