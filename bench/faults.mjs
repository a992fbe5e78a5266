#!/usr/bin/env node
// npm run test:faults: money and webhooks survive crashes. During a flow of completed payments the
// dispatcher is killed (-9) twice, RabbitMQ is stopped and started, and the API is killed (-9) and
// restarted. During a second flow Postgres is restarted, then stopped for 10 s and started again.
// The Postgres and the RabbitMQ node it stops are its own (a throwaway cluster on a free port, one
// RabbitMQ node beside the system's), so it can run beside other tests; the machine's are never touched.
// Afterwards every completed payment's event must have reached the receiver at least once, and no
// request may have answered 500 (an outage is a 503); duplicates are counted and reported. Also:
// 1,000 concurrent creates with one Idempotency-Key make one payment. Exits non-zero on any loss or
// 500. FAULTS_PAYMENTS (2000) sets the size of each flow.
import { randomBytes } from 'node:crypto';
import { Agent } from 'undici';
import {
  apiClient,
  appEnv,
  freePort,
  sleep,
  startApp,
  startReceiver,
  runToCompletion,
  stopApp,
  unexpectedExits,
  waitHealthy,
} from './harness.mjs';
import { completedPayments, paymentFlows, receiverOnceAll } from './payment-flow.mjs';
import { startRabbitCluster } from './rabbitmq-cluster.mjs';
import { throwawayPostgres } from './throwaway-postgres.mjs';

const TOTAL = Number(process.env.FAULTS_PAYMENTS ?? 2000);
const RATE = 100; // completions per second
const DB = 'payhook_faults';
const ADMIN = 'faults-admin-token-0123456789abcdef';
// Free ports: this runs beside the other suites of CI.
const API_PORT = await freePort();
const DISPATCHER_PORT = await freePort();
const API = `http://127.0.0.1:${API_PORT}`;
const log = (line) => console.log(`[faults] ${line}`);

const postgresClusters = await throwawayPostgres('faults');
process.once('exit', () => postgresClusters.remove());
log('starting a Postgres cluster and a RabbitMQ node of its own');
const postgres = await postgresClusters.primary();
const rabbitmq = await startRabbitCluster({ size: 1, firstPort: 5691 });
const [rabbitNode] = rabbitmq.nodes;
const env = { ...appEnv(DB, ''), DATABASE_URL: `${postgres.url}/${DB}`, AMQP_URL: rabbitNode.url };
const apiEnv = {
  ...env,
  PORT: String(API_PORT),
  ADMIN_TOKEN: ADMIN,
  RATE_LIMIT_PER_SECOND: '0',
  // oneKeyManyCreates opens 1,000 connections at once from this one address (the default cap is 256).
  MAX_CONNECTIONS_PER_CLIENT: '2000',
};
const dispatcherEnv = {
  ...env,
  DISPATCHER_PORT: String(DISPATCHER_PORT),
  WEBHOOK_RETRY_SCHEDULE: '1s,2s,5s,10s,20s',
  WEBHOOK_TIMEOUT_MS: '2000',
};
const startApi = () => startApp('payments-api', apiEnv, `${API}/health`);
const startDispatcher = () =>
  startApp('webhook-dispatcher', dispatcherEnv, `http://127.0.0.1:${DISPATCHER_PORT}/health`);

const rabbit = (...args) => rabbitmq.ctl(rabbitNode, ...args);

async function oneKeyManyCreates(client, key) {
  const burst = new Agent({ connections: 1000 });
  const body = JSON.stringify({
    orderId: `one-key-${randomBytes(4).toString('hex')}`,
    customerId: 'faults',
    amount: 5000,
    currency: 'KRW',
    returnUrl: 'https://shop.example/r',
  });
  const answers = await Promise.all(
    Array.from({ length: 1000 }, () =>
      fetch(`${API}/v1/payments`, {
        method: 'POST',
        dispatcher: burst,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': 'one-key' },
        body,
      }).then(async (response) => ({ status: response.status, body: await response.text() })),
    ),
  );
  await burst.close();
  const created = answers.filter((a) => a.status === 201);
  const ids = new Set(created.map((a) => JSON.parse(a.body).data.id));
  const others = answers.filter((a) => a.status !== 201 && a.status !== 409).map((a) => a.status);
  return { created: created.length, distinctIds: ids.size, unexpected: others };
}

async function main() {
  const receiver = await startReceiver();
  let api = await startApi();
  let dispatcher = await startDispatcher();
  const client = apiClient(API);
  const { flow, statuses } = paymentFlows({ client, total: TOTAL, rate: RATE, log });
  const failures = [];
  try {
    const admin = { authorization: `Bearer ${ADMIN}` };
    const merchant = (await client.call('POST', '/admin/v1/merchants', { name: 'Faults Shop' }, admin)).body.data;
    const key = (await client.call('POST', `/admin/v1/merchants/${merchant.id}/api-keys`, { mode: 'test' }, admin)).body
      .data.key;
    const auth = { authorization: `Bearer ${key}` };
    await client.call('PUT', '/v1/webhook-endpoint', { url: receiver.url }, auth);

    log('1,000 concurrent creates with one Idempotency-Key');
    const burst = await oneKeyManyCreates(client, key);
    log(
      `  ${burst.created} × 201, ${burst.distinctIds} distinct payment id(s), unexpected statuses: ${burst.unexpected.length}`,
    );
    if (burst.distinctIds !== 1 || burst.unexpected.length > 0)
      failures.push('one Idempotency-Key made more than one payment');

    await flow(key, 'processes', async (seconds) => {
      await sleep(seconds * 150);
      log('  kill -9 webhook-dispatcher (1/2)');
      await stopApp(dispatcher, 'SIGKILL');
      await sleep(1000);
      dispatcher = await startDispatcher();
      await sleep(seconds * 150);
      log('  rabbitmqctl stop_app / start_app');
      await rabbit('stop_app');
      await sleep(3000);
      await rabbit('start_app');
      await rabbit('await_startup');
      await sleep(seconds * 150);
      log('  kill -9 webhook-dispatcher (2/2)');
      await stopApp(dispatcher, 'SIGKILL');
      await sleep(1000);
      dispatcher = await startDispatcher();
      await sleep(seconds * 100);
      log('  kill -9 payments-api, then start it again');
      await stopApp(api, 'SIGKILL');
      await sleep(1000);
      api = await startApi();
    });
    await flow(key, 'postgres', async (seconds) => {
      await sleep(seconds * 250);
      log('  Postgres restart');
      postgresClusters.restart(postgres);
      await sleep(seconds * 250);
      log('  Postgres stopped for 10 s');
      postgresClusters.stop(postgres);
      await sleep(10_000);
      postgresClusters.start(postgres);
      log('  Postgres started');
    });
    await waitHealthy(`http://127.0.0.1:${DISPATCHER_PORT}/ready`, 'webhook-dispatcher');

    const completed = await completedPayments(`${postgres.url}/${DB}`, merchant.id);
    log(`waiting for ${completed} events at the receiver`);
    const stats = await receiverOnceAll(receiver, completed);
    const duplicates = stats.deliveries - stats.distinct;
    log(`completed payments: ${completed}; distinct events received: ${stats.distinct}; duplicates: ${duplicates}`);
    log(`answers during the flows: ${[...statuses].map(([status, n]) => `${n} × ${status}`).join(', ')}`);
    if (statuses.has(500)) failures.push(`${statuses.get(500)} requests answered 500`);
    if (completed !== 2 * TOTAL) failures.push(`${2 * TOTAL - completed} payments did not complete`);
    if (stats.distinct !== completed)
      failures.push(`${completed - stats.distinct} completed payments never reached the receiver`);
  } finally {
    // A crash is a failure even when the flow recovered from it (the next fault restarted the app).
    failures.push(...unexpectedExits);
    await stopApp(dispatcher);
    await stopApp(api);
    receiver.child.kill();
    await client.close();
    // Its own broker node and Postgres go with it (their processes would keep this one running).
    rabbitmq.destroy({ failed: failures.length > 0 });
    postgresClusters.remove();
  }
  if (failures.length > 0) {
    console.error(`[faults] FAILED: ${failures.join('; ')}`);
    process.exit(1);
  }
  log('passed: nothing lost');
}

runToCompletion('faults', main);
