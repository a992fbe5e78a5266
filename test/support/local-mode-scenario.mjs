#!/usr/bin/env node
// Runs inside a network namespace of its own (test/e2e/local-mode.e2e-spec.ts starts it with
// `unshare -n`), where nothing answers at the PostgreSQL and RabbitMQ defaults: a machine with Node
// alone. It acts as a newcomer would with the README's run command and prints what it observed as
// one JSON line; the spec makes the assertions.
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const root = join(import.meta.dirname, '../..');
const API = 'http://127.0.0.1:3000';
const ADMIN = { Authorization: 'Bearer local-admin-token', 'Content-Type': 'application/json' };
/** The first attempt fails; its retry is due this long after, and the restart falls inside it. */
const RETRY_WAIT_MS = 10_000;

/** Every npm start still running, so a failed scenario leaves nothing behind. */
const running = new Set();

/** `ADMIN_TOKEN=… npm start` (README) with a data directory of this run's own; output captured. */
function npmStart(command, extraEnv) {
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
    if (value) return value;
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

/** The merchant's endpoint: answers 500 to the first delivery, 200 afterwards; keeps what it got. */
function startReceiver() {
  const requests = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      const status = requests.length === 0 ? 500 : 200;
      requests.push({ at: Date.now(), headers: request.headers, body, status });
      response.writeHead(status).end(status === 200 ? 'ok' : 'try later');
    });
  });
  return new Promise((resolve) => server.listen(4000, '127.0.0.1', () => resolve({ server, requests })));
}

/** Ctrl-C: SIGINT to the whole process group. */
async function stop(run) {
  process.kill(-run.child.pid, 'SIGINT');
  return run.exited;
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'payhook-local-'));
  // As root, the embedded Postgres runs as the user postgres, which must reach its directory.
  chmodSync(dataDir, 0o755);
  const startCommand = 'ADMIN_TOKEN=local-admin-token npm start';
  const env = { PAYHOOK_DATA_DIR: dataDir, WEBHOOK_RETRY_SCHEDULE: `${RETRY_WAIT_MS}ms` };

  // Production, or a URL set: an unreachable service is one clear line and exit 1, never local mode.
  const production = npmStart(
    `NODE_ENV=production SECRETS_KEY=${Buffer.alloc(32, 7).toString('base64')} ADMIN_TOKEN=${'a'.repeat(32)} npm start`,
    env,
  );
  const withUrl = npmStart(`DATABASE_URL=postgres://postgres@127.0.0.1:5432/payhook ${startCommand}`, env);
  const refusals = [];
  for (const run of [production, withUrl]) refusals.push({ ...(await run.exited), ...run.output });

  const receiver = await startReceiver();
  const first = npmStart(startCommand, env);
  await ready(first);
  const merchant = await call('POST', '/admin/v1/merchants', ADMIN, { name: 'Local Shop' });
  const key = await call('POST', `/admin/v1/merchants/${merchant.id}/api-keys`, ADMIN, { mode: 'test' });
  const merchantHeaders = { Authorization: `Bearer ${key.key}`, 'Content-Type': 'application/json' };
  const endpoint = await call('PUT', '/v1/webhook-endpoint', merchantHeaders, {
    url: 'http://127.0.0.1:4000/webhooks',
  });
  const payment = await call(
    'POST',
    '/v1/payments',
    { ...merchantHeaders, 'Idempotency-Key': 'local-order-1' },
    {
      orderId: 'local-order-1',
      customerId: 'c-1',
      amount: 15000,
      currency: 'KRW',
      returnUrl: 'https://shop.example/r',
    },
  );
  await call('POST', `/v1/test-helpers/payments/${payment.id}/complete`, merchantHeaders);
  await until('the first attempt', async () => receiver.requests.length >= 1, 30_000);

  // Restart while the retry waits: the wait lives in the embedded database, not in the process.
  const firstExit = await stop(first);
  const stoppedAt = Date.now();
  const second = npmStart(startCommand, env);
  await ready(second);
  await until('the retry', async () => receiver.requests.length >= 2, 60_000);
  const event = await until(
    'the event to show as succeeded',
    async () => {
      const events = await call('GET', `/v1/events?paymentId=${payment.id}`, merchantHeaders);
      return events.find((one) => one.deliveryStatus === 'succeeded');
    },
    10_000,
  );
  const secondExit = await stop(second);
  receiver.server.close();

  console.log(
    JSON.stringify({
      dataDir,
      refusals,
      first: { ...firstExit, ...first.output },
      second: { ...secondExit, ...second.output },
      stoppedAt,
      retryWaitMs: RETRY_WAIT_MS,
      paymentId: payment.id,
      signingSecret: endpoint.signingSecret,
      requests: receiver.requests,
      event,
    }),
  );
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    for (const child of running) process.kill(-child.pid, 'SIGKILL');
    process.exit(1);
  },
);
