#!/usr/bin/env node
// Runs inside a network namespace of its own (test/scenarios/local-mode.scenario-spec.ts starts it with
// `unshare -n`), where nothing answers at the PostgreSQL and RabbitMQ defaults: a machine with Node
// alone. It acts as a newcomer would with the README's run command and prints what it observed as
// one JSON line; the spec makes the assertions.
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';

const root = join(import.meta.dirname, '../..');
const API = 'http://127.0.0.1:3000';
const DISPATCHER = 'http://127.0.0.1:3001';
/** An address of this machine that is not loopback (the spec adds it to the namespace's lo). */
const LAN_ADDRESS = '192.168.77.1';
const ADMIN = { Authorization: 'Bearer local-admin-token', 'Content-Type': 'application/json' };
/** The first attempt fails; its retry is due this long after, and the restart falls inside it. */
const RETRY_WAIT_MS = 10_000;

/** Every npm start still running, so a failed scenario leaves nothing behind. */
const running = new Set();

const startedAt = Date.now();
/** Where the scenario is, on stderr: a timed-out run shows how far it got. */
function step(what) {
  console.error(`[${((Date.now() - startedAt) / 1000).toFixed(1)} s] ${what}`);
}

/** `ADMIN_TOKEN=… npm start` (README) with a data directory of this run's own; output captured. */
function npmStart(command, extraEnv) {
  step(`starting: ${command}`);
  const env = { ...process.env, ...extraEnv };
  for (const name of ['NODE_ENV', 'DATABASE_URL', 'AMQP_URL', 'PAYHOOK_EMBEDDED']) delete env[name];
  // A process group of its own, like a terminal's foreground job: stop() is a Ctrl-C.
  const child = spawn('sh', ['-c', command], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  running.add(child);
  const output = { stdout: '', stderr: '' };
  child.stdout.on('data', (chunk) => (output.stdout += chunk));
  child.stderr.on('data', (chunk) => (output.stderr += chunk));
  // 'close': every process that shares its output (npm, start.mjs, payhook) has ended.
  const exited = new Promise((resolve) =>
    child.on('close', (code, signal) => {
      running.delete(child);
      resolve({ code, signal });
    }),
  );
  return { child, output, exited };
}

async function until(what, check, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check().catch(() => undefined);
    if (value) {
      step(what);
      return value;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(200);
  }
}

/** Ready, or the run's own output to say why not. */
async function ready(run) {
  const exited = run.exited.then((code) => {
    throw new Error(
      `npm start exited with ${JSON.stringify(code)}: ${run.output.stdout.slice(-3_000)} ${run.output.stderr.slice(-3_000)}`,
    );
  });
  const answered = until('payhook to be ready', async () => (await fetch(`${API}/ready`)).ok, 180_000);
  return Promise.race([answered, exited]);
}

async function call(method, path, headers, body) {
  const response = await fetch(`${API}${path}`, { method, headers, body: body && JSON.stringify(body) });
  const json = await response.json();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${JSON.stringify(json)}`);
  return json.data;
}

/**
 * The merchant's endpoint: answers 500 to the first delivery and 200 to the others; keeps what it
 * got. While `hold` is on, a delivery waits for `release()` before its 200 (a slow merchant).
 */
function startReceiver() {
  const receiver = { requests: [], hold: false, held: [] };
  receiver.release = () => receiver.held.splice(0).forEach((answer) => answer());
  receiver.server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      const status = receiver.requests.length === 0 ? 500 : 200;
      const record = { at: Date.now(), headers: request.headers, body, status };
      receiver.requests.push(record);
      const answer = () => {
        record.answeredAt = Date.now();
        response.writeHead(status).end(status === 200 ? 'ok' : 'try later');
      };
      if (receiver.hold) receiver.held.push(answer);
      else answer();
    });
  });
  return new Promise((resolve) => receiver.server.listen(4000, '127.0.0.1', () => resolve(receiver)));
}

/** Whether something accepts a TCP connection at host:port. */
function accepts(host, port) {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (accepted) => {
      socket.destroy();
      resolve(accepted);
    };
    socket.setTimeout(5_000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** The status and body of a readiness probe. */
async function readiness(base) {
  const response = await fetch(`${base}/ready`);
  return { status: response.status, body: await response.json() };
}

/** Gone, or a zombie nobody has reaped yet: either way no longer running. */
function gone(pid) {
  try {
    return /^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

/** A completed test payment: its event goes to the endpoint. */
async function completedPayment(headers, orderId) {
  const payment = await call(
    'POST',
    '/v1/payments',
    { ...headers, 'Idempotency-Key': orderId },
    { orderId, customerId: 'c-1', amount: 15000, currency: 'KRW', returnUrl: 'https://shop.example/r' },
  );
  await call('POST', `/v1/test-helpers/payments/${payment.id}/complete`, headers);
  return payment;
}

/** `npm run example:merchant` as examples/merchant/README.md runs it, until it listens; then Ctrl-C. */
async function runExampleMerchant(env) {
  const example = npmStart('npm run example:merchant', env);
  await Promise.race([
    until('the example merchant to listen', async () => example.output.stdout.includes('listening'), 180_000),
    example.exited.then((code) => {
      throw new Error(`the example merchant exited with ${JSON.stringify(code)}: ${example.output.stderr}`);
    }),
  ]);
  return { ...(await stop(example)), ...example.output };
}

/** Ctrl-C: SIGINT to the whole process group. */
async function stop(run) {
  step('Ctrl-C');
  process.kill(-run.child.pid, 'SIGINT');
  return run.exited;
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'payhook-local-'));
  // As root, the embedded Postgres runs as the user postgres, which must reach its directory.
  chmodSync(dataDir, 0o755);
  const startCommand = 'ADMIN_TOKEN=local-admin-token npm start';
  // A generous attempt timeout: the slow delivery below must not time out on a busy machine.
  const env = { PAYHOOK_DATA_DIR: dataDir, WEBHOOK_RETRY_SCHEDULE: `${RETRY_WAIT_MS}ms`, WEBHOOK_TIMEOUT_MS: '60000' };

  // Production, or a URL set: an unreachable service is one clear line and exit 1, never local mode.
  // One after the other: the first builds the apps, the second finds them built.
  const refusals = [];
  for (const command of [
    `NODE_ENV=production SECRETS_KEY=${Buffer.alloc(32, 7).toString('base64')} ADMIN_TOKEN=${'a'.repeat(32)} npm start`,
    `DATABASE_URL=postgres://postgres@127.0.0.1:5432/payhook ${startCommand}`,
  ]) {
    const run = npmStart(command, env);
    refusals.push({ ...(await run.exited), ...run.output });
  }

  // 1. The README's command: payment A's first attempt fails, and payhook stops while its retry waits.
  const receiver = await startReceiver();
  const first = npmStart(startCommand, env);
  await ready(first);
  const ready1 = { api: await readiness(API), dispatcher: await readiness(DISPATCHER) };
  const reachableFromLan = { byDefault: await accepts(LAN_ADDRESS, 3000) };
  const merchant = await call('POST', '/admin/v1/merchants', ADMIN, { name: 'Local Shop' });
  const key = await call('POST', `/admin/v1/merchants/${merchant.id}/api-keys`, ADMIN, { mode: 'test' });
  const merchantHeaders = { Authorization: `Bearer ${key.key}`, 'Content-Type': 'application/json' };
  const endpoint = await call('PUT', '/v1/webhook-endpoint', merchantHeaders, {
    url: 'http://127.0.0.1:4000/webhooks',
  });
  const payment = await completedPayment(merchantHeaders, 'local-order-1');
  await until('the first attempt', async () => receiver.requests.length >= 1, 30_000);

  // Restart while the retry waits: the wait lives in the embedded database, not in the process.
  const firstExit = await stop(first);
  const stoppedAt = Date.now();

  // 2. With HOST=0.0.0.0: A's retry is delivered; then Ctrl-C while the merchant is slow to answer B.
  const second = npmStart(`HOST=0.0.0.0 ${startCommand}`, env);
  await ready(second);
  reachableFromLan.withHost = await accepts(LAN_ADDRESS, 3000);
  await until('the retry', async () => receiver.requests.length >= 2, 60_000);
  const event = await until(
    'the event to show as succeeded',
    async () => {
      const events = await call('GET', `/v1/events?paymentId=${payment.id}`, merchantHeaders);
      return events.find((one) => one.deliveryStatus === 'succeeded');
    },
    10_000,
  );
  receiver.hold = true;
  const slowPayment = await completedPayment(merchantHeaders, 'local-order-2');
  await until('the slow delivery to reach the merchant', async () => receiver.held.length === 1, 30_000);
  const ctrlCAt = Date.now();
  const secondStopped = stop(second);
  // The stop is under way (the API no longer answers) before the merchant's 200 comes back.
  await until('the API to stop answering', async () => !(await accepts('127.0.0.1', 3000)), 30_000);
  receiver.hold = false;
  receiver.release();
  const secondExit = await secondStopped;

  // 3. After a restart: B was recorded once, as delivered, and nothing is left to send it again.
  const third = npmStart(startCommand, env);
  await ready(third);
  const [slowEventSummary] = await call('GET', `/v1/events?paymentId=${slowPayment.id}`, merchantHeaders);
  const slowEvent = await call('GET', `/v1/events/${slowEventSummary.id}`, merchantHeaders);
  const databaseUrl = readFileSync(join(dataDir, 'database-url'), 'utf8').trim();
  const database = new pg.Client({ connectionString: databaseUrl });
  await database.connect();
  const queued = (await database.query('SELECT count(*)::int AS n FROM webhook_queue WHERE dead_at IS NULL')).rows[0].n;

  // The example merchant, run as its README says, finds local mode's database by itself.
  const example = await runExampleMerchant({
    ...env,
    MERCHANT_PORT: '4001',
    PAYHOOK_API_KEY: key.key,
    PAYHOOK_WEBHOOK_SECRET: endpoint.signingSecret,
  });
  const exampleDatabase = (await database.query("SELECT 1 FROM pg_database WHERE datname = 'example_merchant'"))
    .rowCount;
  await database.end();

  // 4. kill -9 of everything in the terminal's group: the database, in a group of its own, stops too.
  const postgresPid = Number(readFileSync(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
  process.kill(-third.child.pid, 'SIGKILL');
  await third.exited;
  const killedAt = Date.now();
  await until('the orphaned PostgreSQL to stop', async () => gone(postgresPid), 60_000);
  receiver.server.close();

  console.log(
    JSON.stringify({
      dataDir,
      refusals,
      first: { ...firstExit, ...first.output, ready: ready1 },
      second: { ...secondExit, ...second.output },
      third: third.output,
      stoppedAt,
      paymentId: payment.id,
      signingSecret: endpoint.signingSecret,
      requests: receiver.requests,
      event,
      reachableFromLan,
      slow: { paymentId: slowPayment.id, ctrlCAt, event: slowEvent, queued },
      example: { ...example, database: exampleDatabase },
      killed: { postgresPid, stoppedWithinMs: Date.now() - killedAt },
    }),
  );
}

// The spec's timeout ends this with SIGTERM: take every npm start down with it.
process.once('SIGTERM', () => {
  for (const child of running) process.kill(-child.pid, 'SIGKILL');
  process.exit(1);
});

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    for (const child of running) process.kill(-child.pid, 'SIGKILL');
    process.exit(1);
  },
);
