// Shared by bench/run.mjs and bench/faults.mjs: a fresh database and vhost, the built apps as
// real processes, and the receiver process.
import autocannon from 'autocannon';
import { execFileSync, fork, spawn } from 'node:child_process';
import { createWriteStream, readFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import pg from 'pg';
import { Agent } from 'undici';
import { withAppHeap } from '../scripts/app-node-flags.mjs';

export const root = join(import.meta.dirname, '..');
export const PG = 'postgres://postgres@127.0.0.1:5432';
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Drops `name` on the machine's Postgres, connections and all, if it is there. */
export async function dropDatabase(name) {
  const admin = new pg.Client({ connectionString: `${PG}/postgres` });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

/** A run's database starts from nothing: the first app to start creates it and migrates it. */
export const freshDatabase = dropDatabase;

export function freshVhost(vhost) {
  try {
    execFileSync('rabbitmqctl', ['-q', 'delete_vhost', vhost], { stdio: 'ignore' });
  } catch {
    // did not exist
  }
  execFileSync('rabbitmqctl', ['-q', 'add_vhost', vhost]);
  execFileSync('rabbitmqctl', ['-q', 'set_permissions', '-p', vhost, 'guest', '.*', '.*', '.*']);
}

export function appEnv(database, vhost) {
  return {
    DATABASE_URL: `${PG}/${database}`,
    AMQP_URL: `amqp://guest:guest@127.0.0.1:5672/${vhost}`,
    AMQP_NAMESPACE: 'bench',
    NODE_ENV: 'production',
    // Production requires one; this fixed key is for benches only.
    SECRETS_KEY: Buffer.alloc(32, 7).toString('base64'),
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
  };
}

/**
 * How long an app may take to answer its health check. It starts in 1–2 s on an idle machine; on a
 * loaded CI host, migrating a fresh database whose commits wait for a synchronous standby took
 * more than 30 s. A crash does not wait for this: `child`'s exit ends the wait at once.
 */
const START_BUDGET_MS = 120_000;

export async function waitHealthy(url, what, timeoutMs = START_BUDGET_MS, child) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child && (child.exitCode !== null || child.signalCode !== null)) {
      throw new Error(`${what} exited (${child.signalCode ?? `code ${child.exitCode}`}) before it became healthy`);
    }
    const ok = await fetch(url).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return;
    await sleep(100);
  }
  throw new Error(`${what} did not become healthy at ${url} within ${timeoutMs} ms`);
}

/** Starts a built app (`npm run build` first) and waits for its health URL. */
let started = 0;
/** Apps that exited without stopApp(): a crash the test scripts fail on. */
export const unexpectedExits = [];

/** Copies `stream`'s lines to stderr, each after `prefix`. */
function prefixLines(stream, prefix) {
  let rest = '';
  stream.on('data', (chunk) => {
    const lines = (rest + chunk.toString()).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) process.stderr.write(`${prefix}${line}\n`);
  });
  stream.on('end', () => rest && process.stderr.write(`${prefix}${rest}\n`));
}

/** `main`: the app's entry under its dist/apps/<app>/src/ (the bench's payments-api adds the echo route). */
export async function startApp(app, env, healthUrl, { main = 'main.js' } = {}) {
  const entry = join(root, 'dist/apps', app, 'src', main);
  // BENCH_APP_LOGS=dir keeps each app's output in dir/<app>-<pid>.log for a look afterwards.
  const logs = process.env.BENCH_APP_LOGS;
  // BENCH_CPU_PROF=dir writes a V8 CPU profile of each app into dir when it exits (see bench/profile-summary.mjs).
  const profile = process.env.BENCH_CPU_PROF;
  const flags = profile
    ? ['--cpu-prof', `--cpu-prof-dir=${profile}`, `--cpu-prof-name=${app}-${++started}.cpuprofile`]
    : [];
  const child = spawn(process.execPath, [...flags, entry], {
    // Sized as in production (npm start, the Dockerfile).
    env: withAppHeap({ ...process.env, ...env }),
    stdio: ['ignore', logs ? 'pipe' : 'ignore', 'pipe'],
  });
  if (logs) child.stdout.pipe(createWriteStream(join(logs, `${app}-${child.pid}.log`)));
  // Several apps write here: each line says whose it is, and an exit nobody asked for is named.
  prefixLines(child.stderr, `[${app} ${child.pid}] `);
  child.once('exit', (code, signal) => {
    if (child.stopRequested) return;
    const how = signal ? `signal ${signal}` : `code ${code}`;
    console.error(`[bench] ${app} (pid ${child.pid}) exited by itself (${how})`);
    unexpectedExits.push(`${app} (pid ${child.pid}) exited by itself (${how})`);
  });
  try {
    await waitHealthy(healthUrl, app, START_BUDGET_MS, child);
  } catch (error) {
    child.stopRequested = true;
    child.kill('SIGKILL'); // an app that never became healthy is not left running
    throw error;
  }
  return child;
}

/** SIGTERM (graceful) by default; after `graceMs` without an exit, SIGKILL, and say so. */
export async function stopApp(child, signal = 'SIGTERM', graceMs = 30_000) {
  child.stopRequested = true;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', () => resolve(true)));
  child.kill(signal);
  // A timer of its own, cleared on exit: a pending one would keep the test script alive for graceMs.
  let timer;
  const late = new Promise((resolve) => (timer = setTimeout(() => resolve(false), graceMs)));
  const timely = await Promise.race([exited, late]);
  clearTimeout(timer);
  if (!timely) {
    console.error(`[bench] pid ${child.pid} did not exit within ${graceMs} ms of ${signal}; killing it`);
    child.kill('SIGKILL');
    await exited;
  }
}

/** Peak resident set size (VmHWM) of a live process, in MiB. */
export function peakRssMiB(pid) {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmHWM:'));
  return Number(line.split(/\s+/)[1]) / 1024;
}

/** Where freePort looks: below the kernel's ephemeral range, whose ports are handed out unasked. */
const FREE_PORTS_FROM = 10_000;
const FREE_PORTS_BELOW = 20_000;
/** The ports of one PAYHOOK_PORT_BLOCK (scripts/test-scenarios.mjs gives each script running beside the others its own). */
const PORT_BLOCK_SIZE = 1_000;
/** Ports this process handed out: one not listened on yet would still probe free. */
const handedOut = new Set();

/** The first port of the kernel's ephemeral range (net.ipv4.ip_local_port_range); none where there is no /proc. */
function ephemeralPortsFrom() {
  try {
    return Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
  } catch {
    return undefined;
  }
}

/** Whether a loopback listener can bind `port` now (0: any); the port it got, or undefined. */
function probePort(port) {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(undefined));
    probe.listen(port, '127.0.0.1', () => {
      const bound = probe.address().port;
      probe.close(() => resolve(bound));
    });
  });
}

/**
 * A loopback port nobody listens on now, for an app or a server that must be told its port before it
 * starts: the test scripts run beside other suites, where a fixed port may be taken. It is taken below
 * the kernel's ephemeral range, from which the kernel hands out the port of every listener on port 0
 * and of every outgoing connection, so none of those can take it before the app listens: test:cluster
 * once lost its API's port so, to a test server of the suite beside it, while its broker cluster
 * formed. Where the range cannot be read, the OS picks the port. Scripts run beside each other each
 * take from a block of their own (PAYHOOK_PORT_BLOCK): test:faults once lost its dispatcher's port,
 * picked at its start, to a script beside it.
 */
export async function freePort() {
  const ephemeralFrom = ephemeralPortsFrom();
  if (ephemeralFrom === undefined || ephemeralFrom <= FREE_PORTS_FROM) {
    const picked = await probePort(0);
    if (picked === undefined) throw new Error('no loopback port could be bound');
    return picked;
  }
  const block = process.env.PAYHOOK_PORT_BLOCK;
  const from = block === undefined ? FREE_PORTS_FROM : FREE_PORTS_FROM + Number(block) * PORT_BLOCK_SIZE;
  const below = Math.min(block === undefined ? FREE_PORTS_BELOW : from + PORT_BLOCK_SIZE, ephemeralFrom);
  for (let tries = 0; tries < 100; tries++) {
    const port = from + Math.floor(Math.random() * (below - from));
    if (!handedOut.has(port) && (await probePort(port)) !== undefined) {
      handedOut.add(port);
      return port;
    }
  }
  throw new Error(`no free loopback port in ${from}–${below - 1} after 100 tries`);
}

/** `mode`: 'ok' answers 200; 'fail' answers 500 at once; 'hang' accepts and never answers. Port 0: a free one. */
export async function startReceiver(requestedPort = 0, mode = 'ok') {
  const child = fork(join(import.meta.dirname, 'receiver.mjs'), {
    env: { PORT: String(requestedPort), RECEIVER_MODE: mode },
  });
  const port = await new Promise((resolve, reject) => {
    child.once('message', (ready) => resolve(ready.port));
    // Its port taken, say: the receiver exits before it is ready, and the run must fail, not wait.
    child.once('exit', (code) =>
      reject(new Error(`the receiver on port ${requestedPort} exited (${code}) before it was ready`)),
    );
  });
  const base = `http://127.0.0.1:${port}`;
  return {
    child,
    url: `${base}/webhooks`,
    stats: async () => (await fetch(`${base}/stats`)).json(),
    /** [first arrival ms, completion ms] of each event. */
    arrivals: async () => (await fetch(`${base}/arrivals`)).json(),
    /** The first arrival (ms) of each event, by event id. */
    arrivalsByEvent: async () => (await fetch(`${base}/arrivals-by-event`)).json(),
    /** The payment ids of the payment.completed events that arrived. */
    completedPayments: async () => (await fetch(`${base}/completed-payments`)).json(),
    reset: () => fetch(`${base}/reset`, { method: 'POST' }),
  };
}

/**
 * JSON over HTTP to the API, with a keep-alive pool. undici's request, not fetch: the load generator
 * shares the machine with the apps, and a fetch costs it several times the CPU of a request.
 */
export function apiClient(baseUrl) {
  const agent = new Agent({ connections: 64, keepAliveTimeout: 30_000 });
  const call = async (method, path, body, headers = {}) => {
    const response = await agent.request({
      origin: baseUrl,
      path,
      method,
      headers: { 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.body.text();
    return { status: response.statusCode, body: text ? JSON.parse(text) : undefined };
  };
  return { call, close: () => agent.close() };
}

/**
 * JSON POSTs from `connections` keep-alive connections for `seconds`; any non-2xx answer fails the run.
 * Each request is a create of `makeBody()` keyed by its orderId, or, with `makeRequest`, whatever
 * `{path, idempotencyKey, body}` it returns (a refund of another payment each time).
 */
export function postLoad({ url, headers, makeBody, makeRequest, connections, seconds }) {
  const next =
    makeRequest ??
    (() => {
      const body = makeBody();
      return { idempotencyKey: body.orderId, body };
    });
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url,
        connections,
        duration: seconds,
        requests: [
          {
            method: 'POST',
            setupRequest: (request) => {
              const { path, idempotencyKey, body } = next();
              return {
                ...request,
                ...(path ? { path } : {}),
                headers: { ...headers, 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
                body: JSON.stringify(body),
              };
            },
          },
        ],
      },
      (error, result) => {
        if (error) return reject(error);
        if (result.non2xx > 0 || result.errors > 0) {
          return reject(new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`));
        }
        resolve({ rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 });
      },
    );
  });
}

export function machine() {
  const pgVersion = execFileSync('psql', ['-h', '127.0.0.1', '-U', 'postgres', '-tAc', 'SHOW server_version'])
    .toString()
    .trim();
  let rabbit = 'unknown';
  try {
    rabbit = execFileSync('rabbitmqctl', ['version']).toString().trim();
  } catch {
    // not on PATH
  }
  return `${os.cpus().length} × ${os.cpus()[0].model}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ${os.type()} ${os.release()}; Node ${process.version}, PostgreSQL ${pgVersion}, RabbitMQ ${rabbit}`;
}

/**
 * Runs a test script's `main` as its whole work: an error exits 1, and so does a run that stops
 * waiting with nothing left to do (a child that died before it said it was ready), which Node would
 * otherwise end with 0 on an empty event loop.
 */
export function runToCompletion(label, main) {
  let finished = false;
  process.on('beforeExit', () => {
    if (finished) return;
    console.error(`[${label}] FAILED: the run ended before it finished (a process it waited for is gone)`);
    process.exit(1);
  });
  main().then(
    () => (finished = true),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
