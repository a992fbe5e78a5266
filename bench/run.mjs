#!/usr/bin/env node
// npm run bench: every figure as a ratio against a ceiling measured in the same run on this machine.
// Starts the built apps as real processes on a fresh database and RabbitMQ vhost of its own,
// prints a table and writes BENCHMARKS.md. Tunables: BENCH_ROUNDS (3), BENCH_SECONDS (10),
// BENCH_REFUND_PAYMENTS (20,000 completed payments the refund load spreads over).
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { Agent } from 'undici';
import {
  PG,
  apiClient,
  machine,
  postLoad,
  appEnv,
  freshDatabase,
  freshVhost,
  peakRssMiB,
  root,
  sleep,
  startApp,
  startReceiver,
  stopApp,
} from './harness.mjs';
import {
  LATENCY_RATE,
  LATENCY_SECONDS,
  LATENCY_WARM_UP_SECONDS,
  ROUNDS,
  SECONDS,
  completionLatency,
  fmt,
  httpOf,
  log,
  paymentBody,
  percentile,
  range,
  rounds,
  alternatingRounds,
} from './measure.mjs';
import { REFUND_AMOUNT, REFUND_PAYMENTS, refundRequests, seedCompletedPayments } from './refunds.mjs';
import { latencyFloor } from './latency-floor.mjs';
import { SAMPLE_EVERY, completionStages, stageGaps, stagesTable } from './latency-stages.mjs';
import { cpuMeter, pidsNamed } from './cpu-meter.mjs';

// The create statement as the API sends it, from the build (npm run bench builds first).
const { CREATE_PAYMENTS_STATEMENT } = createRequire(import.meta.url)(
  join(root, 'dist/apps/payments-api/src/core/ledger/payment-creation.js'),
);

const CONNECTIONS = 50;
const QUEUED_EVENTS = Number(process.env.BENCH_QUEUED_EVENTS ?? 20_000);
const DB = 'payhook_bench';
const VHOST = 'payhook_bench';
const ADMIN = 'bench-admin-token-0123456789abcdefgh';
const API_PORT = 3100;
const RECEIVER_PORT = 3199;
const API = `http://127.0.0.1:${API_PORT}`;
const LIMITED_API_PORT = 3102;
const LIMITED_API = `http://127.0.0.1:${LIMITED_API_PORT}`;
const LIMITED_RATE = 100_000;
const client = apiClient(API);
const commonEnv = appEnv(DB, VHOST);

const http = httpOf(client);

// ---------- measurements ----------

const cannon = (path, headers, makeBody, base = API) =>
  postLoad({ url: `${base}${path}`, headers, makeBody, connections: CONNECTIONS, seconds: SECONDS });

/** POST /v1/payments/{id}/refunds with the create load's connections and seconds, over seeded payments. */
const refundCannon = (headers, makeRequest) =>
  postLoad({ url: `${API}/v1/payments`, headers, makeRequest, connections: CONNECTIONS, seconds: SECONDS });

/**
 * The database ceiling: PaymentsRepository's create statement over plain pg, one create per
 * statement (a batch of one), 50 at a time. The API may share a statement among creates (ADR 0013).
 */
async function databaseCeiling(merchantId) {
  const pool = new pg.Pool({ connectionString: `${PG}/${DB}`, max: 20 });
  const deadline = Date.now() + SECONDS * 1000;
  let done = 0;
  const worker = async () => {
    while (Date.now() < deadline) {
      const body = paymentBody();
      const id = `pay_${randomBytes(18).toString('base64url')}`;
      const createdAt = new Date();
      const create = {
        id,
        merchant_id: merchantId,
        livemode: false,
        key: `db-${body.orderId}`,
        fingerprint: randomBytes(32).toString('hex'),
        response_body: JSON.stringify({ data: { id } }),
        ttl_hours: 24,
        order_id: body.orderId,
        customer_id: body.customerId,
        amount: body.amount,
        currency: 'KRW',
        return_url: body.returnUrl,
        pay_suffix: randomBytes(24).toString('base64url'),
        expires_at: new Date(createdAt.getTime() + 30 * 60_000),
        created_at: createdAt,
        tax_free_amount: body.taxFreeAmount ?? 0,
        metadata: body.metadata ?? {},
      };
      await pool.query({
        name: 'create-payments',
        text: CREATE_PAYMENTS_STATEMENT,
        values: [JSON.stringify([create])],
      });
      done += 1;
    }
  };
  const started = Date.now();
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  const rps = done / ((Date.now() - started) / 1000);
  await pool.end();
  return { rps };
}

/** 20,000 events written straight into the tables with their deliveries and outbox rows, then published by the relay. */
async function queueEvents(merchantId, count) {
  const db = new pg.Client({ connectionString: `${PG}/${DB}` });
  await db.connect();
  const tag = randomBytes(4).toString('hex');
  await db.query(
    `WITH p AS (
       INSERT INTO payments (id, merchant_id, livemode, order_id, customer_id, amount, currency, status, return_url,
                             pay_suffix, expires_at, created_at, completed_at)
       SELECT 'pay_' || $2 || lpad(g::text, 20, '0'), $1, false, 'q-' || $2 || '-' || g, 'bench', 15000, 'KRW',
              'completed', 'https://shop.example', 's' || $2 || g, now() + interval '1 hour', now(), now()
       FROM generate_series(1, $3) g RETURNING id, order_id
     ), e AS (
       INSERT INTO events (id, merchant_id, livemode, type, payment_id, body, created_at)
       SELECT 'evt_' || substr(id, 5), $1, false, 'payment.completed', id,
              json_build_object('id', 'evt_' || substr(id, 5), 'type', 'payment.completed',
                'createdAt', to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                'data', json_build_object('paymentId', id, 'orderId', order_id, 'amount', 15000, 'currency', 'KRW',
                  'completedAt', to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')))::text,
              now()
       FROM p RETURNING id, created_at
     ), d AS (
       INSERT INTO webhook_deliveries (event_id, endpoint_id, merchant_id, livemode, status, created_at)
       SELECT e.id, w.id, $1, false, 'pending', e.created_at
       FROM e, (SELECT id FROM webhook_endpoints WHERE merchant_id = $1 AND livemode = false) w
       RETURNING event_id, endpoint_id
     )
     INSERT INTO outbox (routing_key, message_type, payload)
     SELECT 'webhook.deliver', 'webhook.delivery-requested.v2',
            json_build_object('type', 'webhook.delivery-requested.v2', 'eventId', event_id, 'endpointId', endpoint_id,
                              'retryStep', 0, 'manual', false, 'requestedAt', now())::text
     FROM d`,
    [merchantId, tag, count],
  );
  for (;;) {
    const { rows } = await db.query(`SELECT count(*)::int AS n FROM outbox WHERE published_at IS NULL`);
    if (rows[0].n === 0) break;
    await sleep(200);
  }
  await db.end();
}

/**
 * VACUUM ANALYZE of the run's database, before each phase, as autovacuum would have done by then on a
 * production Postgres (docker-compose.yml's runs it). This machine's Postgres runs without
 * autovacuum: without this each phase would inherit every dead row and index entry of the phases
 * before it (the relay's pick-up, for one, walks the outbox entries of every row published since the
 * last vacuum: docs/performance.md).
 */
const vacuumDatabase = () => maintainDatabase('VACUUM ANALYZE');

/**
 * ANALYZE of the run's database after a latency row's warm-up, as autovacuum would have done by then:
 * the warm-up took the events and deliveries tables from the none the vacuum before saw to a thousand
 * rows, past autovacuum's threshold. Without it, the plans the apps made while those tables were empty
 * (each connection plans a statement once) scanned them whole on every call for the rest of the row
 * (docs/performance.md).
 */
const analyzeDatabase = () => maintainDatabase('ANALYZE');

async function maintainDatabase(statement) {
  const db = new pg.Client({ connectionString: `${PG}/${DB}` });
  await db.connect();
  try {
    await db.query(statement);
  } finally {
    await db.end();
  }
}

/**
 * QUEUED_EVENTS deliveries: `events` events of the merchant, each delivered to each of its endpoints
 * (all at `receiver`), drained by `instances` dispatchers; deliveries per second from the first to the last,
 * and the CPU per delivery of the dispatchers and the services they use, with the machine's busy share.
 */
async function dispatcherThroughput(instances, merchantId, receiver, endpoints = 1) {
  const events = QUEUED_EVENTS / endpoints;
  await receiver.reset();
  await queueEvents(merchantId, events);
  await vacuumDatabase();
  log(`${events} events queued for ${endpoints} endpoint(s); starting ${instances} dispatcher(s)`);
  const dispatchers = [];
  for (let i = 0; i < instances; i++) {
    const port = 3101 + i;
    dispatchers.push(
      await startApp(
        'webhook-dispatcher',
        { ...commonEnv, DISPATCHER_PORT: String(port) },
        `http://127.0.0.1:${port}/health`,
      ),
    );
  }
  const cpu = cpuMeter({
    dispatchers: () => dispatchers.map((dispatcher) => dispatcher.pid),
    postgres: () => pidsNamed('postgres'),
    rabbitmq: () => pidsNamed('beam.smp'),
    receiver: () => [receiver.child.pid],
  });
  let stats = await receiver.stats();
  // The meter starts once the dispatchers answer health checks: deliveries made before it are not its.
  const deliveredBeforeMeter = stats.deliveries;
  const deadline = Date.now() + 300_000;
  while (stats.deliveries < QUEUED_EVENTS && Date.now() < deadline) {
    await sleep(250);
    stats = await receiver.stats();
  }
  const cpuPerDelivery = cpu.stop(stats.deliveries - deliveredBeforeMeter);
  const rss = Math.max(...dispatchers.map((d) => peakRssMiB(d.pid)));
  log(`delivered ${stats.deliveries}; stopping the dispatcher(s)`);
  await Promise.all(dispatchers.map((dispatcher) => stopApp(dispatcher)));
  const seconds = (stats.lastDelivery - stats.first) / 1000;
  return { rps: stats.deliveries / seconds, delivered: stats.deliveries, rss, cpu: cpuPerDelivery };
}

const FAN_OUT_ENDPOINTS = 4;

/** A merchant of its own with `urls` as its endpoints (POST /v1/webhook-endpoints); returns its id and key. */
async function merchantWithEndpoints(name, adminAuth, urls) {
  const shop = (await http('POST', '/admin/v1/merchants', { name }, adminAuth)).data;
  const key = (await http('POST', `/admin/v1/merchants/${shop.id}/api-keys`, { mode: 'test' }, adminAuth)).data.key;
  for (const url of urls) await http('POST', '/v1/webhook-endpoints', { url }, { authorization: `Bearer ${key}` });
  return { id: shop.id, key };
}

/**
 * ADR 0016: one merchant with 4 endpoints, one of them hanging: the completion → webhook latency at
 * each of the 3 healthy ones, with 1 dispatcher, at the isolation runs' rate.
 */
async function fanOutLatency(adminAuth, port) {
  await vacuumDatabase();
  const healthy = await Promise.all([0, 1, 2].map((n) => startReceiver(port + n)));
  const hanging = await startReceiver(port + 3, 'hang');
  const shop = await merchantWithEndpoints(
    'Fan-out Shop',
    adminAuth,
    [...healthy, hanging].map((r) => r.url),
  );
  const dispatcher = await startApp(
    'webhook-dispatcher',
    { ...commonEnv, DISPATCHER_PORT: '3101' },
    'http://127.0.0.1:3101/health',
  );
  try {
    const first = await completionLatency(http, shop.key, healthy[0], ISOLATION_RATE, ISOLATION_SECONDS, {
      warmUpSeconds: LATENCY_WARM_UP_SECONDS,
      afterWarmUp: analyzeDatabase,
      warmed: healthy,
    });
    const others = [];
    for (const receiver of healthy.slice(1)) {
      const deadline = Date.now() + 60_000;
      let stats = await receiver.stats();
      while (stats.distinct < first.completed && Date.now() < deadline) {
        await sleep(200);
        stats = await receiver.stats();
      }
      others.push({
        delivered: stats.distinct,
        p99: percentile(stats.latencies, 99),
        p50: percentile(stats.latencies, 50),
      });
    }
    const all = [first, ...others];
    return {
      warmUp: first.warmUp,
      completed: first.completed,
      delivered: Math.min(...all.map((run) => run.delivered)),
      p50: Math.max(...all.map((run) => run.p50)),
      p99: Math.max(...all.map((run) => run.p99)),
    };
  } finally {
    await stopApp(dispatcher);
    for (const receiver of [...healthy, hanging]) receiver.child.kill();
  }
}

/**
 * The first seconds of a latency row, at its rate and not counted: for the rows that start their
 * dispatchers just before, the figures of a fresh dispatcher (its connections and code still cold).
 */
const freshDispatcher = (run) =>
  `first ${LATENCY_WARM_UP_SECONDS} s, not counted: p50 ${fmt(run.warmUp.p50)}, p99 ${fmt(run.warmUp.p99)}`;

const ISOLATION_OWED = Number(process.env.BENCH_ISOLATION_OWED ?? 10_000);
const ISOLATION_RATE = 100;
const ISOLATION_SECONDS = Number(process.env.BENCH_ISOLATION_SECONDS ?? 15);
/** Long enough for the owed events to reach the dispatchers and the first hanging attempts to time out. */
const ISOLATION_SETTLE_MS = 12_000;

/**
 * ADR 0007: the healthy merchant's completion → webhook latency with `instances` dispatchers, alone
 * (`mode` 'none') or while a second merchant is owed ISOLATION_OWED events by an endpoint that
 * hangs or answers 500 at once.
 */
async function isolation(instances, mode, key, receiver, adminAuth, port) {
  await vacuumDatabase();
  let troubled;
  let troubledReceiver;
  if (mode !== 'none') {
    troubledReceiver = await startReceiver(port, mode);
    troubled = (await http('POST', '/admin/v1/merchants', { name: `Broken ${mode}` }, adminAuth)).data;
    const troubledKey = (await http('POST', `/admin/v1/merchants/${troubled.id}/api-keys`, { mode: 'test' }, adminAuth))
      .data.key;
    await http(
      'PUT',
      '/v1/webhook-endpoint',
      { url: troubledReceiver.url },
      { authorization: `Bearer ${troubledKey}` },
    );
  }
  const dispatchers = [];
  for (let i = 0; i < instances; i++) {
    const dispatcherPort = 3101 + i;
    dispatchers.push(
      await startApp(
        'webhook-dispatcher',
        { ...commonEnv, DISPATCHER_PORT: String(dispatcherPort) },
        `http://127.0.0.1:${dispatcherPort}/health`,
      ),
    );
  }
  try {
    if (troubled) {
      await queueEvents(troubled.id, ISOLATION_OWED);
      log(`${ISOLATION_OWED} events owed to an endpoint that ${mode === 'hang' ? 'hangs' : 'answers 500'}`);
      await sleep(ISOLATION_SETTLE_MS);
    }
    return await completionLatency(http, key, receiver, ISOLATION_RATE, ISOLATION_SECONDS, {
      warmUpSeconds: LATENCY_WARM_UP_SECONDS,
      afterWarmUp: analyzeDatabase,
    });
  } finally {
    await Promise.all(dispatchers.map((dispatcher) => stopApp(dispatcher)));
    if (troubled) {
      // Retire the broken merchant, so the next scenario starts with no one else's backlog.
      const db = new pg.Client({ connectionString: `${PG}/${DB}` });
      await db.connect();
      await db.query(`UPDATE webhook_endpoints SET status = 'disabled' WHERE merchant_id = $1`, [troubled.id]);
      await db.query(`UPDATE webhook_deliveries SET lane_due_at = NULL WHERE merchant_id = $1`, [troubled.id]);
      await db.end();
      troubledReceiver.child.kill();
    }
  }
}

/** A plain undici keep-alive POST loop to the same receiver, 10 at a time: the delivery ceiling. */
async function deliveryCeiling(receiver) {
  await receiver.reset();
  const client = new Agent({ connections: 10, keepAliveTimeout: 30_000 });
  const body = JSON.stringify({ id: 'evt_x', type: 'payment.completed', data: { amount: 15000 } });
  let next = 0;
  const started = Date.now();
  const worker = async () => {
    while (next < QUEUED_EVENTS) {
      const n = next++;
      const response = await fetch(receiver.url, {
        method: 'POST',
        dispatcher: client,
        headers: {
          'content-type': 'application/json',
          'service-event-id': `evt_ceiling_${n}`,
          'service-signature': 't=1,v1=x',
        },
        body,
      });
      await response.text();
    }
  };
  await Promise.all(Array.from({ length: 10 }, worker));
  const rps = QUEUED_EVENTS / ((Date.now() - started) / 1000);
  await client.close();
  return { rps };
}

// ---------- report ----------

const HISTORY_MARKER = '<!-- Below: measured history, kept as written by npm run bench. -->';

/** The hand-written before/after record at the end of BENCHMARKS.md survives a new run. */
function keptHistory() {
  let current = '';
  try {
    current = readFileSync(join(root, 'BENCHMARKS.md'), 'utf8');
  } catch {
    return '';
  }
  const at = current.indexOf(HISTORY_MARKER);
  return at === -1 ? '' : `\n${current.slice(at)}`;
}

const verdict = (ok) => (ok ? 'met' : '**missed**');
/** A dispatcher row's CPU per delivery (medians of its rounds) and how busy the machine was; '' without /proc. */
const cpuNote = (cpu) =>
  cpu
    ? `; CPU per delivery: dispatcher(s) ${fmt(cpu.dispatchers)} µs, Postgres ${fmt(cpu.postgres)}, RabbitMQ ${fmt(cpu.rabbitmq)}, receiver ${fmt(cpu.receiver)}; machine ${fmt(cpu.busyPercent)} % busy`
    : '';

async function main() {
  await freshDatabase(DB);
  freshVhost(VHOST);
  const receiver = await startReceiver(RECEIVER_PORT);
  const api = await startApp(
    'payments-api',
    { ...commonEnv, PORT: String(API_PORT), ADMIN_TOKEN: ADMIN, RATE_LIMIT_PER_SECOND: '0' },
    `${API}/health`,
    { main: 'bench/echo-main.js' },
  );
  try {
    const adminAuth = { authorization: `Bearer ${ADMIN}` };
    const merchant = (await http('POST', '/admin/v1/merchants', { name: 'Bench Shop' }, adminAuth)).data;
    const key = (await http('POST', `/admin/v1/merchants/${merchant.id}/api-keys`, { mode: 'test' }, adminAuth)).data
      .key;
    await http('PUT', '/v1/webhook-endpoint', { url: receiver.url }, { authorization: `Bearer ${key}` });
    const auth = { authorization: `Bearer ${key}` };

    log(`database ceiling: the create statement over plain pg, ${CONNECTIONS} concurrent`);
    const database = await rounds(() => databaseCeiling(merchant.id));
    // ADR 0017: the same load through a second API with the shared rate limit on, high enough that
    // nothing is refused, so the difference is what taking tokens from the shared bucket costs.
    const limitedApi = await startApp(
      'payments-api',
      { ...commonEnv, PORT: String(LIMITED_API_PORT), ADMIN_TOKEN: ADMIN, RATE_LIMIT_PER_SECOND: String(LIMITED_RATE) },
      `${LIMITED_API}/health`,
    );
    // The framework ceiling and the creates without and with the rate limit take turns, so that the
    // figures set against each other see the same drift of a shared machine; each load runs a round
    // first that is not counted, so that none is measured on code not yet compiled.
    const loads = [
      () => cannon('/bench/echo', auth, paymentBody),
      () => cannon('/v1/payments', auth, paymentBody),
      () => cannon('/v1/payments', auth, paymentBody, LIMITED_API),
    ];
    const takingTurns = async () => {
      await vacuumDatabase();
      for (const load of loads) await load();
      log(
        `framework ceiling (POST /bench/echo) and create (POST /v1/payments without and with RATE_LIMIT_PER_SECOND=${LIMITED_RATE}), ${CONNECTIONS} connections, taking turns, ${ROUNDS} × ${SECONDS} s each`,
      );
      return alternatingRounds(loads);
    };
    // Stopped however the rounds end: a failed run must not leave the second API running.
    const [echo, create, limitedCreate] = await takingTurns().finally(() => stopApp(limitedApi));
    await vacuumDatabase();
    // The floor right before the row it is the floor of: the same services, rate and seconds, a
    // receiver of its own, and a quorum queue of its own in the bench's vhost.
    const floorReceiver = await startReceiver(0);
    const floor = await latencyFloor({
      databaseUrl: commonEnv.DATABASE_URL,
      amqpUrl: commonEnv.AMQP_URL,
      receiver: floorReceiver,
      queue: 'bench.latency-floor',
    }).finally(() => floorReceiver.child.kill());
    const dispatcher = await startApp(
      'webhook-dispatcher',
      { ...commonEnv, DISPATCHER_PORT: '3101' },
      'http://127.0.0.1:3101/health',
    );
    const latency = await completionLatency(http, key, receiver, LATENCY_RATE, LATENCY_SECONDS, {
      warmUpSeconds: LATENCY_WARM_UP_SECONDS,
      afterWarmUp: analyzeDatabase,
    });
    const dispatcherRssLatency = peakRssMiB(dispatcher.pid);
    await stopApp(dispatcher);
    const stages = stagesTable(
      stageGaps(await completionStages(commonEnv.DATABASE_URL, receiver, latency.paymentIds)),
      stageGaps(floor.samples),
    );
    log(`where the time goes (every ${SAMPLE_EVERY}th event):\n${stages}`);

    // The ceiling, one dispatcher and two take turns, so that the figures set against each other see
    // the same drift of a shared machine, as creates and refunds do.
    log('delivery ceiling (an undici keep-alive POST loop, 10 at a time) taking turns with 1 and 2 dispatchers');
    const [ceiling, one, two] = await alternatingRounds([
      () => deliveryCeiling(receiver),
      () => dispatcherThroughput(1, merchant.id, receiver),
      () => dispatcherThroughput(2, merchant.id, receiver),
    ]);
    log(`dispatcher throughput, 1 instance, ${FAN_OUT_ENDPOINTS} endpoints per event`);
    const fanOutShop = await merchantWithEndpoints(
      'Four Endpoints Shop',
      adminAuth,
      Array.from({ length: FAN_OUT_ENDPOINTS }, () => receiver.url),
    );
    const fanOut = await rounds(() => dispatcherThroughput(1, fanOutShop.id, receiver, FAN_OUT_ENDPOINTS));
    const apiRss = peakRssMiB(api.pid);

    const isolationRuns = [];
    for (const instances of [1, 2]) {
      for (const mode of ['none', 'hang', 'fail']) {
        log(`isolation: ${instances} dispatcher(s), other merchant: ${mode}`);
        isolationRuns.push({
          instances,
          mode,
          ...(await isolation(instances, mode, key, receiver, adminAuth, RECEIVER_PORT - 1)),
        });
      }
    }
    log(`fan-out: ${FAN_OUT_ENDPOINTS} endpoints of one merchant, one of them hanging`);
    const fanOutRun = await fanOutLatency(adminAuth, RECEIVER_PORT - 10);
    // Last of all: the seeded payments and their refunds (tens of thousands of rows) must not weigh on
    // the phases above. Refunds take turns with creates (the same connections and seconds), so the two
    // figures set against each other see one database, grown by every phase before, and one drift of
    // the shared host, as the rate limit's row does (ADR 0017).
    log(`refund: seeding ${REFUND_PAYMENTS} completed payments`);
    const refundable = await seedCompletedPayments(`${PG}/${DB}`, merchant.id);
    await vacuumDatabase();
    log(
      `refund: POST /v1/payments/{id}/refunds, ${CONNECTIONS} connections, a payment each, taking turns with POST /v1/payments`,
    );
    const refunds = refundRequests(refundable);
    const [createBesideRefund, refund] = await alternatingRounds([
      () => cannon('/v1/payments', auth, paymentBody),
      () =>
        refundCannon(auth, refunds.next).catch((error) => {
          if (!refunds.exhausted()) throw error;
          throw new Error(
            `the ${refunds.capacity} refunds the seeded payments allow ran out: raise BENCH_REFUND_PAYMENTS`,
          );
        }),
    ]);

    const isolationRows = isolationRuns.map((run) => {
      const baseline = isolationRuns.find((other) => other.instances === run.instances && other.mode === 'none');
      const label = {
        none: 'alone',
        hang: `beside ${ISOLATION_OWED.toLocaleString('en-US')} owed to a hanging endpoint`,
        fail: `beside ${ISOLATION_OWED.toLocaleString('en-US')} owed to an endpoint answering 500`,
      }[run.mode];
      const target =
        run.mode === 'none'
          ? ''
          : `p99 ≤ 250 and ≤ 3 × alone: ${verdict(run.p99 <= 250 && run.p99 <= 3 * baseline.p99 && run.delivered === run.completed)}`;
      return [
        `Healthy merchant, ${run.instances} dispatcher(s), ${label} (ms)`,
        `p50 ${fmt(run.p50)}, p99 ${fmt(run.p99)}`,
        `${run.delivered}/${run.completed} delivered at ${ISOLATION_RATE}/s; ${freshDispatcher(run)}`,
        target,
      ];
    });

    // The one-endpoint figure of this run at the same rate: the healthy merchant alone, 1 dispatcher.
    const oneAlone = isolationRuns.find((run) => run.instances === 1 && run.mode === 'none');
    const lowerCeiling = Math.min(echo.rps.median, database.rps.median);
    const createRatio = create.rps.median / lowerCeiling;
    const refundRatio = refund.rps.median / createBesideRefund.rps.median;
    const oneRatio = one.rps.median / ceiling.rps.median;
    const dispatcherRss = dispatcherRssLatency; // the dispatcher's peak during the steady-rate run
    const rows = [
      [
        'Framework ceiling: POST /bench/echo (req/s)',
        range(echo.rps),
        `p50 ${range(echo.p50)} ms, p99 ${range(echo.p99)} ms`,
        '',
      ],
      ['Database ceiling: create statement over plain pg (tx/s)', range(database.rps), '', ''],
      [
        'Create payment: POST /v1/payments (req/s)',
        range(create.rps),
        `${fmt(createRatio, 2)} × lower ceiling; p50 ${range(create.p50)} ms, p99 ${range(create.p99)} ms`,
        `≥ 0.8 × lower ceiling and p99 < 100 ms: ${verdict(createRatio >= 0.8 && create.p99.median < 100)}`,
      ],
      [
        `Create payment with the shared rate limit on (RATE_LIMIT_PER_SECOND=${fmt(LIMITED_RATE)}, nothing refused) (req/s)`,
        range(limitedCreate.rps),
        `${fmt(limitedCreate.rps.median / create.rps.median, 2)} × create without it; p50 ${range(limitedCreate.p50)} ms, p99 ${range(limitedCreate.p99)} ms`,
        `≥ 0.95 × create: ${verdict(limitedCreate.rps.median >= 0.95 * create.rps.median)}`,
      ],
      [
        `Refund a completed test payment: POST /v1/payments/{id}/refunds, ₩${fmt(REFUND_AMOUNT)} (req/s)`,
        range(refund.rps),
        `${fmt(refundRatio, 2)} × create taking turns with it (${range(createBesideRefund.rps)} req/s; ${fmt(refund.rps.median / create.rps.median, 2)} × the create row); p50 ${range(refund.p50)} ms, p99 ${range(refund.p99)} ms`,
        `≥ 0.8 × create: ${verdict(refundRatio >= 0.8)}`,
      ],
      [
        `Latency floor: NOTIFY → listener → publish with confirms → consumer → signed undici POST → row, at ${LATENCY_RATE}/s (ms)`,
        `p50 ${fmt(floor.p50)}, p99 ${fmt(floor.p99)}`,
        `${floor.delivered}/${floor.completed} delivered, ${floor.duplicates} duplicates`,
        '',
      ],
      [
        `Completion → webhook at ${LATENCY_RATE}/s for ${LATENCY_SECONDS} s (ms)`,
        `p50 ${fmt(latency.p50)}, p99 ${fmt(latency.p99)}`,
        `${fmt(latency.p99 / floor.p99, 1)} × the floor's p99; ${latency.delivered}/${latency.completed} delivered, ${latency.duplicates} duplicates`,
        `p99 ≤ 2 × floor p99 and ≤ 250 ms, none lost: ${verdict(
          latency.p99 <= 2 * floor.p99 && latency.p99 <= 250 && latency.delivered === latency.completed,
        )}`,
      ],
      ['Delivery ceiling: undici keep-alive loop, 10 in flight (req/s)', range(ceiling.rps), '', ''],
      [
        `Dispatcher, 1 instance, ${QUEUED_EVENTS.toLocaleString('en-US')} queued (deliveries/s)`,
        range(one.rps),
        `${fmt(oneRatio, 2)} × delivery ceiling${cpuNote(one.cpu)}`,
        `≥ 0.7 × delivery ceiling: ${verdict(oneRatio >= 0.7)}`,
      ],
      [
        'Dispatcher, 2 instances (deliveries/s)',
        range(two.rps),
        `${fmt(two.rps.median / ceiling.rps.median, 2)} × delivery ceiling; ${fmt(two.rps.median / one.rps.median, 2)} × 1 instance${cpuNote(two.cpu)}`,
        `≥ 1 instance: ${verdict(two.rps.median >= one.rps.median)}`,
      ],
      [
        `Dispatcher, 1 instance, ${FAN_OUT_ENDPOINTS} endpoints per event (deliveries/s)`,
        range(fanOut.rps),
        `${fmt(fanOut.rps.median / ceiling.rps.median, 2)} × delivery ceiling`,
        '',
      ],
      ...isolationRows,
      [
        `Fan-out: 3 healthy endpoints of a merchant beside its 4th, hanging; 1 dispatcher (ms)`,
        `p50 ${fmt(fanOutRun.p50)}, p99 ${fmt(fanOutRun.p99)}`,
        `the slowest of the 3; ${fanOutRun.delivered}/${fanOutRun.completed} delivered to each at ${ISOLATION_RATE}/s; ${freshDispatcher(fanOutRun)}`,
        `p99 ≤ 250 and ≤ 3 × one endpoint alone: ${verdict(
          fanOutRun.p99 <= 250 && fanOutRun.p99 <= 3 * oneAlone.p99 && fanOutRun.delivered === fanOutRun.completed,
        )}`,
      ],
      [
        'Peak RSS (MiB)',
        `api ${fmt(apiRss)}, dispatcher ${fmt(dispatcherRss)}`,
        'VmHWM of each process',
        `≤ 256 each: ${verdict(apiRss <= 256 && dispatcherRss <= 256)}`,
      ],
    ];
    const table = [
      '| measure | median (min–max) | ratio and detail | target |',
      '|---|---|---|---|',
      ...rows.map((r) => `| ${r.join(' | ')} |`),
    ].join('\n');
    console.log(`\n${table}\n`);
    const report = `# Benchmarks

Produced by \`npm run bench\` (${ROUNDS} rounds of ${SECONDS} s for the HTTP figures; medians with min–max).
Every figure is set against a ceiling measured in the same run on the same machine: the framework
ceiling is a bare JSON echo route in the same Nest/express app and middleware, taking turns with the
creates (each load after a round not counted, which warms it up); the database ceiling
is the create statement replayed over plain \`pg\` with the same concurrency; a refund is set against
creates taking turns with it at the end of the run, on the database every phase before has grown
(each the guarded hold on the payment, the refund, its event, its settlement record, its key and its
audit entry; a test refund runs a live refund's writers, and refunds that arrive together share a
transaction in which each writer is one statement for the batch, ADR 0015), spread over
${fmt(REFUND_PAYMENTS)} completed payments seeded beforehand so that no two refunds in flight wait on
one payment's row lock (refunds of one payment queue on that lock, so a single payment refunded by 50
connections at once takes them one at a time: History has a try); the delivery ceiling is
a plain undici keep-alive POST loop to the same receiver with 10 requests in flight (the dispatcher's
per-endpoint limit per instance), taking turns with the rounds of one and of two dispatchers, whose rows also give
each process's CPU per delivery (Linux's /proc: the dispatchers, all of Postgres and RabbitMQ, the
receiver) and how busy the machine's cores were; creates with the
shared rate limit on are set against creates without it, the two taking turns (ADR 0017). The apps
run with NODE_ENV=production, so on quorum queues; the run's database is vacuumed and analyzed
before each phase, and analyzed again after each latency row's warm-up, as autovacuum would have done by then. Load is generated on the same machine (autocannon,
50 connections), so the load generator competes with the code under test for the same cores. The
latency floor is the least completion → webhook can take with these services on this machine: a row
committed with a NOTIFY, a listener publishing it with a confirm to a quorum queue, a consumer POSTing
it signed with undici to a receiver like the product's and recording the attempt before its ack, each
a process of its own, measured right before completion → webhook at the same rate for as long (after
${LATENCY_WARM_UP_SECONDS} s at that rate, not counted, as completion → webhook has: both are of a warm
pipeline) and the same way (receiver arrival less the body's completedAt). The isolation and fan-out
rows start their dispatchers just before; they too count only after ${LATENCY_WARM_UP_SECONDS} s at their rate, and
report those first seconds beside (a fresh dispatcher's).

- Machine: ${machine()}
- Command: \`npm run bench\` (${new Date().toISOString().slice(0, 10)})

${table}

Where the time of completion → webhook goes, in every ${SAMPLE_EVERY}th event of that row and of the
floor's: the gaps between the timestamps each stage leaves (the payment's completed_at, the delivery
request's requestedAt, the outbox row's published_at, which is the relay pass's start, the attempt's
started_at and duration; the receiver's arrival). The product stores no time for the commit, the
confirm, the consume or the record, so those stages are inside the gaps around them.

${stages}

Why the missed targets are missed, with CPU profiles of the apps under this load
(\`BENCH_CPU_PROF=dir npm run bench\`, then \`node bench/profile-summary.mjs dir\`):
[docs/performance.md](docs/performance.md).
`;
    writeFileSync(join(root, 'BENCHMARKS.md'), `${report}${keptHistory()}`);
    log('wrote BENCHMARKS.md');
  } finally {
    await stopApp(api);
    receiver.child.kill();
    await client.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
