#!/usr/bin/env node
// npm run test:cluster: a broker node's loss loses no webhook. Starts a RabbitMQ
// cluster of three nodes on this machine beside the system's own (rabbitmq-cluster.mjs), the API and
// two dispatchers against all three nodes (AMQP_URL a list) with quorum queues, and during 2,000
// completions kills -9 the node that leads the delivery queue, then starts it again. Afterwards
// every completed payment's event must have reached the receiver; duplicates and the time until
// deliveries resumed are printed. Everything is torn down, also on failure. CLUSTER_PAYMENTS (2000)
// sets the size of the flow.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import {
  PG,
  apiClient,
  appEnv,
  freePort,
  dropDatabase,
  freshDatabase,
  root,
  sleep,
  startApp,
  startReceiver,
  stopApp,
  runToCompletion,
  unexpectedExits,
} from './harness.mjs';
import { percentile } from './measure.mjs';
import { completedPayments, paymentFlows, receiverOnceAll } from './payment-flow.mjs';
import { startRabbitCluster } from './rabbitmq-cluster.mjs';

// The queue names as the apps derive them, from the build (npm run test:cluster builds first).
const { webhookTopology } = createRequire(import.meta.url)(join(root, 'dist/libs/messaging/src/webhook-topology.js'));

const TOTAL = Number(process.env.CLUSTER_PAYMENTS ?? 2000);
const RATE = 100; // completions per second
const DB = 'payhook_cluster';
const NAMESPACE = 'payhook-cluster';
const ADMIN = 'cluster-admin-token-0123456789abcdef';
// Free ports: this runs beside the other suites of CI.
const API_PORT = await freePort();
const DISPATCHER_PORTS = [await freePort(), await freePort()];
/** How long the killed node stays down: long enough for the cluster to elect a new leader and move on. */
const DOWN_MS = 15_000;
const API = `http://127.0.0.1:${API_PORT}`;
const log = (line) => console.log(`[cluster] ${line}`);

async function main() {
  log('starting 3 RabbitMQ nodes and joining them');
  const formingSince = Date.now();
  const cluster = await startRabbitCluster({ size: 3 });
  log(`cluster of ${cluster.nodes.map((node) => node.name).join(', ')} formed in ${Date.now() - formingSince} ms`);
  const failures = [];
  const apps = [];
  let receiver;
  let client;
  try {
    await freshDatabase(DB);
    const env = {
      ...appEnv(DB, ''),
      AMQP_URL: cluster.urls.join(','),
      AMQP_NAMESPACE: NAMESPACE,
      AMQP_QUEUE_TYPE: 'quorum',
    };
    receiver = await startReceiver();
    apps.push(
      await startApp(
        'payments-api',
        { ...env, PORT: String(API_PORT), ADMIN_TOKEN: ADMIN, RATE_LIMIT_PER_SECOND: '0' },
        `${API}/health`,
      ),
    );
    for (const port of DISPATCHER_PORTS) {
      apps.push(
        await startApp(
          'webhook-dispatcher',
          {
            ...env,
            DISPATCHER_PORT: String(port),
            WEBHOOK_RETRY_SCHEDULE: '1s,2s,5s,10s,20s',
            WEBHOOK_TIMEOUT_MS: '2000',
          },
          `http://127.0.0.1:${port}/health`,
        ),
      );
    }
    client = apiClient(API);
    const admin = { authorization: `Bearer ${ADMIN}` };
    const merchant = (await client.call('POST', '/admin/v1/merchants', { name: 'Cluster Shop' }, admin)).body.data;
    const key = (await client.call('POST', `/admin/v1/merchants/${merchant.id}/api-keys`, { mode: 'test' }, admin)).body
      .data.key;
    await client.call('PUT', '/v1/webhook-endpoint', { url: receiver.url }, { authorization: `Bearer ${key}` });

    const { deliveryQueue } = webhookTopology(NAMESPACE, 'quorum');
    const { flow, statuses } = paymentFlows({ client, total: TOTAL, rate: RATE, log });
    // Asked before the flow and kept current while it runs: on a busy machine one rabbitmqctl call
    // can take seconds, so asking only at the kill would land it after the completions have ended.
    let leader = await cluster.leaderOf(deliveryQueue);
    if (!leader) throw new Error(`no node leads ${deliveryQueue}`);
    let watching = true;
    const watch = (async () => {
      while (watching) {
        const now = await cluster.leaderOf(deliveryQueue).catch(() => undefined);
        if (watching && now) leader = now;
        await sleep(1_000);
      }
    })();
    let killedAt;
    await flow(key, 'cluster', async (seconds) => {
      await sleep(seconds * 300);
      watching = false;
      log(`  kill -9 ${leader.name}, the leader of ${deliveryQueue}`);
      killedAt = Date.now();
      cluster.kill(leader);
      await sleep(DOWN_MS);
      log(`  starting ${leader.name} again`);
      await cluster.restart(leader);
      log(`  ${leader.name} is back; ${deliveryQueue} is now led by ${(await cluster.leaderOf(deliveryQueue))?.name}`);
    });
    await watch;

    const completed = await completedPayments(`${PG}/${DB}`, merchant.id);
    log(`waiting for ${completed} events at the receiver`);
    const stats = await receiverOnceAll(receiver, completed);
    const arrivals = await receiver.arrivals();
    // New work made after the kill: how long until the first of it came through the cluster.
    const afterKill = arrivals.filter(([, completedAt]) => completedAt > killedAt).map(([arrived]) => arrived);
    const resumedMs = afterKill.length > 0 ? Math.min(...afterKill) - killedAt : null;
    const latencies = arrivals.map(([arrived, completedAt]) => arrived - completedAt);
    log(
      `completed payments: ${completed}; distinct events received: ${stats.distinct}; lost: ${completed - stats.distinct}; ` +
        `duplicates: ${stats.deliveries - stats.distinct}`,
    );
    log(
      `deliveries resumed ${resumedMs === null ? 'never' : `${resumedMs} ms`} after the kill (the first event completed after it); ` +
        `completion → webhook p50 ${percentile(latencies, 50)} ms, p99 ${percentile(latencies, 99)} ms, max ${Math.max(...latencies)} ms`,
    );
    log(`answers during the flow: ${[...statuses].map(([status, n]) => `${n} × ${status}`).join(', ')}`);
    if (statuses.has(500)) failures.push(`${statuses.get(500)} requests answered 500`);
    if (completed !== TOTAL) failures.push(`${TOTAL - completed} payments did not complete`);
    if (stats.distinct !== completed)
      failures.push(`${completed - stats.distinct} completed payments never reached the receiver`);
    if (resumedMs === null) failures.push('no event completed after the kill was delivered');
  } catch (error) {
    failures.push(String(error));
  } finally {
    failures.push(...unexpectedExits);
    // Each step on its own: one that fails must not leave the others' processes behind.
    for (const app of apps.reverse()) await stopApp(app).catch((error) => console.error(error));
    receiver?.child.kill();
    await client?.close().catch(() => undefined);
    cluster.destroy({ failed: failures.length > 0 });
    // The machine's Postgres keeps nothing of the run (the RabbitMQ nodes were the run's own).
    await dropDatabase(DB).catch((error) => console.error(`[cluster] could not drop ${DB}: ${error}`));
  }
  if (failures.length > 0) {
    console.error(`[cluster] FAILED: ${failures.join('; ')}`);
    process.exit(1);
  }
  log('passed: nothing lost with the queue leader killed');
}

runToCompletion('cluster', main);
