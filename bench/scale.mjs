#!/usr/bin/env node
// npm run bench:scale: the same API on an empty database and on SCALE_PAYMENTS payments (default
// 10,000,000) over 1,000 merchants, one of them holding half. Seeds with bench/scale-seed.sql, then
// measures through the API what merchants and the console do, and writes the Scale section of
// BENCHMARKS.md. Tunables: SCALE_PAYMENTS, SCALE_SAMPLES (requests per list measure, 40).
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import {
  PG,
  apiClient,
  appEnv,
  freshDatabase,
  freshVhost,
  machine,
  postLoad,
  root,
  startApp,
  stopApp,
} from './harness.mjs';

const PAYMENTS = Number(process.env.SCALE_PAYMENTS ?? 10_000_000);
const MERCHANTS = 1_000;
const BIG_SHARE = 0.5;
const SAMPLES = Number(process.env.SCALE_SAMPLES ?? 40);
const CREATE_SECONDS = 10;
const DB = 'payhook_scale';
const VHOST = 'payhook_scale';
const ADMIN = 'scale-admin-token-0123456789abcdef';
const PORT = 3150;
const API = `http://127.0.0.1:${PORT}`;
const BIG = 'mch_scale0000000000000001';
const log = (line) => console.log(`[bench:scale] ${line}`);
const percentile = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
const fmt = (n, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

async function sql(text, values) {
  const db = new pg.Client({ connectionString: `${PG}/${DB}` });
  await db.connect();
  try {
    return (await db.query(text, values)).rows;
  } finally {
    await db.end();
  }
}

/** bench/scale-seed.sql with its three numbers; every parameter is a number, so inlining is safe. */
async function seed(payments) {
  const text = readFileSync(join(import.meta.dirname, 'scale-seed.sql'), 'utf8')
    .replaceAll('$1', String(Number(payments)))
    .replaceAll('$2', String(MERCHANTS))
    .replaceAll('$3', String(BIG_SHARE));
  const started = Date.now();
  await sql(`BEGIN; ${text}; COMMIT`);
  await sql('VACUUM ANALYZE');
  return (Date.now() - started) / 1000;
}

async function startApi() {
  return startApp(
    'payments-api',
    { ...appEnv(DB, VHOST), PORT: String(PORT), ADMIN_TOKEN: ADMIN, RATE_LIMIT_PER_SECOND: '0' },
    `${API}/health`,
  );
}

/** A live key of the big merchant, and a console session on it. */
async function bigMerchantAccess(client) {
  const admin = { authorization: `Bearer ${ADMIN}` };
  const key = (await client.call('POST', `/admin/v1/merchants/${BIG}/api-keys`, { mode: 'live' }, admin)).body.data.key;
  const password = 'scale bench console password';
  const email = `scale-${randomBytes(3).toString('hex')}@shop.example`;
  // The console login of a merchant approved through the API, moved onto the seeded merchant.
  const shop = (await client.call('POST', '/admin/v1/merchants', { name: 'Console donor' }, admin)).body.data;
  await client.call(
    'POST',
    `/admin/v1/merchants/${shop.id}/approve`,
    { consoleEmail: email, consolePassword: password },
    admin,
  );
  // Moved, not copied: one login opens one merchant, so the login below goes straight in.
  await sql(`UPDATE merchant_members SET merchant_id = $2 WHERE merchant_id = $1`, [shop.id, BIG]);
  // As a browser signs in: the login page's CSRF cookie and hidden field.
  const page = await fetch(`${API}/console/login`);
  const loginCookie = (page.headers.get('set-cookie') ?? '').split(';')[0];
  const csrf = /name="csrf" value="([^"]+)"/.exec(await page.text())?.[1] ?? '';
  const login = await fetch(`${API}/console/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: loginCookie },
    body: new URLSearchParams({ csrf, email, password }),
  });
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
  if (login.status !== 303 || !cookie) throw new Error(`console login answered ${login.status}`);
  return { auth: { authorization: `Bearer ${key}` }, cookie };
}

/** p50/p95 of SAMPLES sequential GETs (after one warm-up); every answer must be 200. */
async function timeGets(path, headers) {
  const times = [];
  for (let i = 0; i <= SAMPLES; i++) {
    const started = performance.now();
    const response = await fetch(`${API}${path}`, { headers });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`GET ${path} → ${response.status}`);
    if (i > 0) times.push(performance.now() - started);
  }
  return { p50: percentile(times, 0.5), p95: percentile(times, 0.95) };
}

/** The cursor of page `depth` (pages of 100), found by walking there once. */
async function deepCursor(query, headers, depth) {
  let cursor = null;
  for (let page = 1; page < depth; page++) {
    const response = await fetch(`${API}/v1/payments?${query}&limit=100${cursor ? `&cursor=${cursor}` : ''}`, {
      headers,
    });
    const body = await response.json();
    if (!body.nextCursor) return null;
    cursor = body.nextCursor;
  }
  return cursor;
}

async function createRate(auth) {
  let n = 0;
  const tag = randomBytes(4).toString('hex');
  const result = await postLoad({
    url: `${API}/v1/payments`,
    headers: auth,
    makeBody: () => ({
      orderId: `scale-${tag}-${++n}`,
      customerId: 'scale-customer',
      amount: 15000,
      currency: 'KRW',
      returnUrl: 'https://shop.example/return',
    }),
    connections: 50,
    seconds: CREATE_SECONDS,
  });
  return result.rps;
}

/** The background statements as the API runs them, timed over plain pg (they run inside the API). */
async function backgroundTimes() {
  const time = async (text) => {
    const started = performance.now();
    await sql(`BEGIN; ${text}; ROLLBACK`);
    return performance.now() - started;
  };
  return {
    // PaymentsRepository.expireOverdue, one batch of 500
    sweeper: await time(`UPDATE payments SET status = 'expired', updated_at = now()
       WHERE id = ANY (ARRAY(SELECT id FROM payments WHERE status = 'pending' AND expires_at <= now()
                             ORDER BY expires_at LIMIT 500 FOR UPDATE SKIP LOCKED)) AND status = 'pending'`),
    // OutboxRepository: the relay's claim of the next batch
    relay: await time(`SELECT id, routing_key, message_type, payload FROM outbox
       WHERE published_at IS NULL ORDER BY id LIMIT 100 FOR UPDATE SKIP LOCKED`),
    // EventsRepository.purgeAttempts, one batch of 1,000
    purge: await time(`DELETE FROM webhook_attempts WHERE id = ANY (ARRAY(
         SELECT id FROM webhook_attempts WHERE started_at < now() - interval '30 days' ORDER BY started_at LIMIT 1000))`),
  };
}

/** A fresh database holding `payments` seeded payments, with the API running on it. */
async function prepare(payments) {
  await freshDatabase(DB);
  freshVhost(VHOST);
  const api = await startApi(); // creates the database and runs the migrations
  const seconds = await seed(payments);
  return { api, seconds };
}

async function main() {
  const client = apiClient(API);
  log('empty database: the merchants only');
  let { api } = await prepare(0);
  try {
    const emptyCreate = await createRate((await bigMerchantAccess(client)).auth);
    log(`create on an empty database: ${fmt(emptyCreate)} req/s`);
    await stopApp(api);

    log(`seeding ${fmt(PAYMENTS)} payments over ${MERCHANTS} merchants`);
    const prepared = await prepare(PAYMENTS);
    api = prepared.api;
    const { seconds } = prepared;
    log(`seeded in ${fmt(seconds)} s`);
    const { auth, cookie } = await bigMerchantAccess(client);

    const rows = [];
    const measure = async (label, path, headers = auth) => {
      const { p50, p95 } = await timeGets(path, headers);
      rows.push([label, `${fmt(p50, 1)}`, `${fmt(p95, 1)}`, p95 < 20 ? 'met' : '**missed**']);
      log(`${label}: p50 ${fmt(p50, 1)} ms, p95 ${fmt(p95, 1)} ms`);
    };
    for (const query of [
      '',
      'status=completed',
      'status=pending',
      'status=failed',
      'status=canceled',
      'status=expired',
      'status=failed,canceled,expired',
      'orderId=order-1000',
      'customerId=cust-42',
      'customerId=cust-42&status=completed',
      'createdFrom=2026-03-01T00:00:00Z&createdTo=2026-03-02T00:00:00Z',
      'status=canceled&createdFrom=2026-03-01T00:00:00Z&createdTo=2026-06-01T00:00:00Z',
    ]) {
      await measure(`GET /v1/payments?${query || 'limit=20'}`, `/v1/payments?${query || 'limit=20'}`);
    }
    for (const query of ['status=completed', 'status=canceled']) {
      const cursor = await deepCursor(query, auth, 100);
      if (cursor)
        await measure(
          `GET /v1/payments?${query}, page 100 (of 100)`,
          `/v1/payments?${query}&limit=100&cursor=${cursor}`,
        );
    }
    const [payment] = await sql(
      `SELECT id FROM payments WHERE merchant_id = $1 ORDER BY created_at DESC LIMIT 1 OFFSET 1000`,
      [BIG],
    );
    await measure('GET /v1/payments/{id}', `/v1/payments/${payment.id}`);
    await measure('GET /v1/events?limit=100', '/v1/events?limit=100');
    await measure('GET /v1/settlements?limit=100', '/v1/settlements?limit=100');
    const console = { cookie };
    await measure('console: payments', '/console/payments?mode=live', console);
    await measure('console: payments, status canceled', '/console/payments?mode=live&status=canceled', console);
    await measure('console: search by order id', '/console/payments?mode=live&orderId=order-1000', console);
    await measure('console: one payment', `/console/payments/${payment.id}?mode=live`, console);

    const fullCreate = await createRate(auth);
    log(`create on ${fmt(PAYMENTS)} payments: ${fmt(fullCreate)} req/s`);
    const background = await backgroundTimes();
    const [{ size }] = await sql(`SELECT pg_size_pretty(pg_database_size(current_database())) AS size`);

    const createRatio = fullCreate / emptyCreate;
    const section = `<!-- scale:start -->
## Scale (\`npm run bench:scale\`)

- Machine: ${machine()}
- Data: ${fmt(PAYMENTS)} payments over ${MERCHANTS} merchants (one with ${fmt(PAYMENTS * BIG_SHARE)}), a year of dates,
  99.3% completed, 0.4% failed, 0.15% canceled, 0.1% expired; an event, an attempt, a settlement and a
  published outbox row per completed payment. Seeded in ${fmt(seconds)} s; database ${size}.
- Command: \`SCALE_PAYMENTS=${PAYMENTS} npm run bench:scale\` (${new Date().toISOString().slice(0, 10)}); ${SAMPLES} sequential requests per line, as the big merchant.

| read (big merchant) | p50 ms | p95 ms | p95 < 20 ms |
|---|---|---|---|
${rows.map((row) => `| ${row.join(' | ')} |`).join('\n')}

| write and background | value | target |
|---|---|---|
| Create, empty database (req/s, 50 connections) | ${fmt(emptyCreate)} | |
| Create, ${fmt(PAYMENTS)} payments (req/s) | ${fmt(fullCreate)} | ${fmt(createRatio, 2)} × empty; within 10%: ${createRatio >= 0.9 ? 'met' : '**missed**'} |
| Expiry sweeper, one batch (ms) | ${fmt(background.sweeper, 1)} | |
| Outbox relay, one claim (ms) | ${fmt(background.relay, 1)} | |
| Attempts purge, one batch of 1,000 (ms) | ${fmt(background.purge, 1)} | |
<!-- scale:end -->`;
    const file = join(root, 'BENCHMARKS.md');
    const current = readFileSync(file, 'utf8');
    const start = current.indexOf('<!-- scale:start -->');
    const end = current.indexOf('<!-- scale:end -->');
    const next =
      start === -1
        ? `${current.trimEnd()}\n\n${section}\n`
        : `${current.slice(0, start)}${section}${current.slice(end + '<!-- scale:end -->'.length)}`;
    writeFileSync(file, next);
    log('wrote the Scale section of BENCHMARKS.md');
  } finally {
    await stopApp(api);
    await client.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
