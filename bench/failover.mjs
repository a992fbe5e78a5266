#!/usr/bin/env node
// npm run test:failover: payhook follows a real database failover. Builds a pg_auto_failover
// formation of its own (bench/pg-auto-failover.mjs: a monitor, a primary and a synchronous standby in
// a temp directory on free ports), runs the built API and a dispatcher on the formation's host list
// (DATABASE_URL as `pg_autoctl show uri` gives it, target_session_attrs=read-write) and a RabbitMQ
// vhost of its own, and while merchants create payments (with an Idempotency-Key, repeated on a 503)
// and complete them:
//   1. kills -9 the primary (its keeper and Postgres) and lets the monitor promote the standby;
//   2. starts the old primary again, which rejoins as a standby, and has the monitor switch back
//      (`pg_autoctl perform switchover`).
// After each switch, every acknowledged create and completion must be on the new primary; at the end
// every acknowledged completion's payment.completed must have reached the receiver, no answer may be
// other than 2xx, 409 or 503, and both apps must still run. Prints the write outage (the kill → the
// first create answered 201) and the time from the promotion to that create, which must be ≤ 10 s.
// Everything it started is stopped and its directory deleted, also on failure. FAILOVER_FAULT=freeze
// stops the primary (SIGSTOP: a host that hangs and closes nothing) instead of killing it.
import { randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import {
  apiClient,
  appEnv,
  freePort,
  freshVhost,
  sleep,
  startApp,
  startReceiver,
  stopApp,
  runToCompletion,
  unexpectedExits,
} from './harness.mjs';
import { queryOnce, startAutoFailover, until } from './pg-auto-failover.mjs';

const DB = 'payhook_failover';
const VHOST = 'payhook-failover';
const ADMIN = 'failover-admin-token-0123456789abcdef';
/** Merchants creating and completing payments at once, each one after the other… */
const MERCHANT_WORKERS = 6;
/** …each at most this many a second: a steady load that leaves the machine's other lanes their share. */
const PAYMENTS_PER_SECOND_EACH = 10;
/** How often a merchant repeats a request the API answered 503 (the test's; Retry-After says 5 s). */
const RETRY_EVERY_MS = 100;
/** Writes must resume this soon after the promotion. */
const RESUME_LIMIT_MS = 10_000;
const GIVE_UP_AFTER_MS = 60_000;
/** FAILOVER_FAULT=freeze: the primary stops answering (SIGSTOP) instead of dying (kill -9). */
const FAULT = process.env.FAILOVER_FAULT ?? 'kill';
const API_PORT = await freePort();
const DISPATCHER_PORT = await freePort();
const API = `http://127.0.0.1:${API_PORT}`;
const began = Date.now();
const log = (line) => console.log(`[failover ${((Date.now() - began) / 1000).toFixed(1)} s] ${line}`);

/**
 * The apps' DATABASE_URL from the monitor's own: its hosts and target_session_attrs, the user
 * postgres and the test's database. (Its sslmode goes: the nodes here run without TLS.)
 */
function databaseUrl(formationUri) {
  const match = /^postgres(?:ql)?:\/\/([^/]+)\/[^?]*\?(.*)$/.exec(formationUri);
  if (!match) throw new Error(`unexpected formation URI ${formationUri}`);
  const params = new URLSearchParams(match[2]);
  return `postgres://postgres@${match[1]}/${DB}?target_session_attrs=${params.get('target_session_attrs')}`;
}

/** Merchants creating and completing payments until stopped; what the API acknowledged, and when. */
function merchants(client, auth) {
  const statuses = new Map();
  const created = new Set(); // payment ids answered 201
  const completed = new Set(); // payment ids answered 200 (or 409 to a repeat: completed by an earlier try)
  const createAttempts = []; // { sent, answered, status } of every create sent
  const unexpected = [];
  let running = true;
  const count = (status) => statuses.set(status, (statuses.get(status) ?? 0) + 1);

  /** A request repeated while the API answers 503 or not at all; resolves to the final answer. */
  async function untilAnswered(method, path, body, headers, attempts) {
    const since = Date.now();
    for (let attempt = 0; ; attempt++) {
      // Never for ever: an API that does not come back fails the run instead of hanging it.
      if (Date.now() - since > GIVE_UP_AFTER_MS) return { status: 'no answer', body: `for ${GIVE_UP_AFTER_MS} ms` };
      const sent = Date.now();
      let answer;
      try {
        answer = await client.call(method, path, body, headers);
      } catch {
        answer = undefined; // no answer (a connection reset): repeat, as for a 503
      }
      attempts?.push({ sent, answered: Date.now(), status: answer?.status ?? 'no answer' });
      if (answer) {
        count(answer.status);
        if (answer.status !== 503) return { ...answer, sent, attempt, answered: Date.now() };
      }
      await sleep(RETRY_EVERY_MS);
    }
  }

  async function merchant(worker) {
    for (let n = 0; running; n++) {
      const pace = sleep(1000 / PAYMENTS_PER_SECOND_EACH);
      const orderId = `failover-${worker}-${n}-${randomBytes(3).toString('hex')}`;
      const create = await untilAnswered(
        'POST',
        '/v1/payments',
        { orderId, customerId: 'failover', amount: 15000, currency: 'KRW', returnUrl: 'https://shop.example/r' },
        { ...auth, 'idempotency-key': orderId },
        createAttempts,
      );
      if (create.status !== 201) {
        unexpected.push(`create ${orderId}: ${create.status} ${JSON.stringify(create.body)}`);
        continue;
      }
      const id = create.body.data.id;
      created.add(id);
      const done = await untilAnswered('POST', `/v1/test-helpers/payments/${id}/complete`, undefined, auth);
      if (done.status === 200 || (done.status === 409 && done.attempt > 0)) completed.add(id);
      else unexpected.push(`complete ${id}: ${done.status} ${JSON.stringify(done.body)}`);
      await pace;
    }
  }

  const workers = Array.from({ length: MERCHANT_WORKERS }, (_, worker) => merchant(worker));
  return {
    statuses,
    created,
    completed,
    unexpected,
    /** Creates sent at or after `since`, in the order they were answered. */
    createsSince: (since) =>
      createAttempts.filter((attempt) => attempt.sent >= since).sort((a, b) => a.answered - b.answered),
    stop: async () => {
      running = false;
      await Promise.all(workers);
    },
  };
}

/** Whether every acknowledged create and completion is in the database at `url`; the missing ones. */
async function missingOn(url, created, completed) {
  const rows = await queryOnce(url, 'SELECT id, status FROM payments WHERE id = ANY($1::text[])', [[...created]]);
  const status = new Map(rows.map((row) => [row.id, row.status]));
  return {
    creates: [...created].filter((id) => !status.has(id)),
    completions: [...completed].filter((id) => status.get(id) !== 'completed'),
  };
}

/**
 * A switch, measured from `brokeAt` (the kill, or the switchover's start): when the standby took
 * writes, when the first create sent since was answered 201 after that, and the write outage: from
 * the kill, or for a switchover from the first create it refused (the old primary takes writes until
 * it drains), to that 201.
 */
async function measureSwitch({ formation, load, to, brokeAt, label, graceful = false }) {
  const promotedAt = await until(
    `${to.name} taking writes`,
    async () => (await formation.takesWrites(to)) && Date.now(),
    {
      everyMs: 25,
    },
  );
  const resumed = await until(
    'a create answered 201 after the promotion',
    async () => load.createsSince(brokeAt).find((attempt) => attempt.status === 201 && attempt.answered >= promotedAt),
    { everyMs: 50, timeoutMs: 60_000 },
  );
  const refused = load.createsSince(brokeAt).find((attempt) => attempt.status !== 201);
  const outageFrom = graceful ? (refused?.sent ?? resumed.sent) : brokeAt;
  const figures = {
    label,
    promotedMs: promotedAt - brokeAt,
    outageMs: resumed.answered - outageFrom,
    afterPromotionMs: resumed.answered - promotedAt,
  };
  log(
    `  ${label}: ${to.name} took writes ${figures.promotedMs} ms after it; creates were refused for ` +
      `${figures.outageMs} ms; the first answered 201 ${figures.afterPromotionMs} ms after the promotion`,
  );
  return figures;
}

async function main() {
  const failures = [];
  const apps = [];
  let formation;
  // Stopped from outside (a CI run cancelled, ^C): nothing it started may stay behind.
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.once(signal, () => {
      for (const app of apps) app.kill('SIGKILL');
      formation?.destroy();
      process.exit(1);
    });
  }
  process.once('exit', () => formation?.destroy());
  let receiver;
  let client;
  let load;
  try {
    log('building a pg_auto_failover monitor, a primary and a synchronous standby');
    const since = Date.now();
    formation = await startAutoFailover({ label: 'failover' });
    const [node1, node2] = formation.nodes;
    const formationUri = await formation.formationUri();
    const DATABASE_URL = databaseUrl(formationUri);
    log(`formed in ${Date.now() - since} ms; pg_autoctl show uri: ${formationUri}`);
    log(`DATABASE_URL=${DATABASE_URL}`);

    freshVhost(VHOST);
    log('starting the API and a dispatcher on the host list');
    const env = { ...appEnv(DB, VHOST), DATABASE_URL, AMQP_NAMESPACE: 'payhook-failover' };
    receiver = await startReceiver();
    apps.push(
      await startApp(
        'payments-api',
        { ...env, PORT: String(API_PORT), ADMIN_TOKEN: ADMIN, RATE_LIMIT_PER_SECOND: '0' },
        `${API}/health`,
      ),
    );
    apps.push(
      await startApp(
        'webhook-dispatcher',
        { ...env, DISPATCHER_PORT: String(DISPATCHER_PORT), WEBHOOK_RETRY_SCHEDULE: '1s,2s,5s,10s,20s' },
        `http://127.0.0.1:${DISPATCHER_PORT}/health`,
      ),
    );
    client = apiClient(API);
    const admin = { authorization: `Bearer ${ADMIN}` };
    const merchant = (await client.call('POST', '/admin/v1/merchants', { name: 'Failover Shop' }, admin)).body.data;
    const key = (await client.call('POST', `/admin/v1/merchants/${merchant.id}/api-keys`, { mode: 'test' }, admin)).body
      .data.key;
    const auth = { authorization: `Bearer ${key}` };
    await client.call('PUT', '/v1/webhook-endpoint', { url: receiver.url }, auth);

    log(`${MERCHANT_WORKERS} merchants creating and completing payments`);
    load = merchants(client, auth);
    const checkOn = async (node, when) => {
      // What was acknowledged before the check began must all be there.
      const created = new Set(load.created);
      const completed = new Set(load.completed);
      const missing = await missingOn(formation.url(node, DB), created, completed);
      log(
        `  on ${node.name} ${when}: ${created.size - missing.creates.length}/${created.size} acknowledged creates, ` +
          `${completed.size - missing.completions.length}/${completed.size} acknowledged completions`,
      );
      if (missing.creates.length > 0) failures.push(`${missing.creates.length} acknowledged creates lost ${when}`);
      if (missing.completions.length > 0)
        failures.push(`${missing.completions.length} acknowledged completions lost ${when}`);
    };
    await until('payments flowing', async () => load.completed.size >= 60, { everyMs: 100, timeoutMs: 30_000 });

    log(
      `1. ${FAULT === 'freeze' ? 'SIGSTOP to' : 'kill -9'} ${node1.name} (the primary: its pg_autoctl keeper and Postgres)`,
    );
    const killedAt = Date.now();
    if (FAULT === 'freeze') formation.freeze(node1);
    else formation.kill(node1);
    const crash = await measureSwitch({
      formation,
      load,
      to: node2,
      brokeAt: killedAt,
      label: FAULT === 'freeze' ? 'SIGSTOP' : 'kill -9',
    });
    await sleep(2_000);
    await checkOn(node2, 'after the failover');

    log(`2. ${node1.name} started again: it rejoins as a standby`);
    if (FAULT === 'freeze') formation.kill(node1);
    formation.rejoin(node1);
    const rejoinedSince = Date.now();
    const primary = await formation.steady();
    if (primary !== node2) throw new Error(`${primary.name} is the primary after the rejoin, not ${node2.name}`);
    log(`  ${node1.name} is a synchronous standby again after ${Date.now() - rejoinedSince} ms`);
    await sleep(2_000);
    log(`   pg_autoctl perform switchover: back to ${node1.name}`);
    const switchedAt = Date.now();
    // It returns once the old primary is a standby again; the apps need not wait for that.
    const switching = formation.switchover();
    const switchover = await measureSwitch({
      formation,
      load,
      to: node1,
      brokeAt: switchedAt,
      label: 'switchover',
      graceful: true,
    });
    await sleep(2_000);
    await load.stop();
    await checkOn(node1, 'after the switchover');
    await switching;

    log(`waiting for ${load.completed.size} acknowledged completions' webhooks at the receiver`);
    const notArrived = await until(
      'every webhook',
      async () => {
        const arrived = new Set(await receiver.completedPayments());
        const missing = [...load.completed].filter((id) => !arrived.has(id));
        return missing.length === 0 ? [] : undefined;
      },
      { everyMs: 500, timeoutMs: 120_000 },
    ).catch(async () => {
      const arrived = new Set(await receiver.completedPayments());
      return [...load.completed].filter((id) => !arrived.has(id));
    });
    if (notArrived.length > 0) failures.push(`${notArrived.length} acknowledged completions' webhooks never arrived`);

    for (const [app, url] of [
      ['payments-api', `${API}/health`],
      ['webhook-dispatcher', `http://127.0.0.1:${DISPATCHER_PORT}/health`],
    ]) {
      const ok = await fetch(url).then(
        (response) => response.ok,
        () => false,
      );
      if (!ok) failures.push(`${app} does not answer its health check at the end`);
    }
    const others = [...load.statuses].filter(([status]) => ![200, 201, 409, 503].includes(status));
    log(`answers: ${[...load.statuses].map(([status, n]) => `${n} × ${status}`).join(', ')}`);
    log(
      `acknowledged: ${load.created.size} creates, ${load.completed.size} completions; ` +
        `webhooks arrived for ${load.completed.size - notArrived.length}`,
    );
    if (others.length > 0) failures.push(`answers other than 2xx/409/503: ${others.map(([s, n]) => `${n} × ${s}`)}`);
    failures.push(...load.unexpected.slice(0, 5));
    for (const figures of [crash, switchover]) {
      if (figures.afterPromotionMs > RESUME_LIMIT_MS)
        failures.push(`${figures.label}: writes resumed ${figures.afterPromotionMs} ms after the promotion (> 10 s)`);
    }
    log(
      `figures: ${crash.label} → promotion ${crash.promotedMs} ms, write outage ${crash.outageMs} ms, ` +
        `promotion → first create ${crash.afterPromotionMs} ms; switchover → promotion ${switchover.promotedMs} ms, ` +
        `write outage ${switchover.outageMs} ms, promotion → first create ${switchover.afterPromotionMs} ms`,
    );
  } catch (error) {
    failures.push(String(error?.stack ?? error));
  } finally {
    failures.push(...unexpectedExits);
    await load?.stop().catch(() => undefined);
    for (const app of apps.reverse()) await stopApp(app).catch((error) => console.error(error));
    receiver?.child.kill();
    await client?.close().catch(() => undefined);
    formation?.destroy({ failed: failures.length > 0 });
    try {
      execFileSync('rabbitmqctl', ['-q', 'delete_vhost', VHOST], { stdio: 'ignore' });
    } catch {
      // already gone
    }
  }
  if (failures.length > 0) {
    console.error(`[failover] FAILED: ${failures.join('; ')}`);
    process.exit(1);
  }
  log('passed: nothing acknowledged lost, both apps followed both switches');
}

runToCompletion('failover', main);
