import './tracing';
import 'reflect-metadata';
import type { INestApplication } from '@nestjs/common';
import { loadEnvOrExit, startupProgress } from '@payhook/config';
import { resolve } from 'node:path';
import { createPaymentsApi } from '../../payments-api/src/app.setup';
import { PaymentsApiEnv } from '../../payments-api/src/platform/config/payments-api.env';
import { listenWithBacklog } from '../../payments-api/src/platform/http/connection-limits';
import { createWebhookDispatcher } from '../../webhook-dispatcher/src/app.setup';
import { WebhookDispatcherEnv } from '../../webhook-dispatcher/src/config/webhook-dispatcher.env';
import { announceWebhookDispatcher } from '../../webhook-dispatcher/src/listening';
import { announcePaymentsApi } from '../../payments-api/src/listening';
import { startEmbeddedPostgres, type EmbeddedDatabase } from './embedded-postgres';

/**
 * Local mode (ADR 0009): payhook on a machine with Node alone. Both apps run in this
 * one process on an embedded Postgres, and the webhook queue is a table in it instead of RabbitMQ:
 * the same API, screen, console and signed webhooks, and retry waits that survive a restart.
 * scripts/start.mjs chooses it and says so; this file only runs it.
 */
async function main(): Promise<void> {
  // scripts/start.mjs has said, as its first line, that this is local mode and where the data lives.
  const dataDir = resolve(process.env.PAYHOOK_DATA_DIR || '.payhook');
  // Nest holds its lines back until an app is created: a slow start says where it is (issue 24).
  const startFinished = startupProgress.reportSlowStart('payhook');
  startupProgress.set('starting the embedded PostgreSQL');
  let database: EmbeddedDatabase;
  try {
    database = await startEmbeddedPostgres(dataDir);
  } catch (error) {
    console.error(`payhook cannot start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
  // The example merchant and psql can use it too; the password stays in the file (0600), out of the terminal.
  console.log(
    `payhook: embedded PostgreSQL at ${database.url.replace(/:[^:@/]+@/, ':…@')} ` +
      `(the URL with its password: ${database.urlFile})`,
  );

  const local = {
    ...process.env,
    DATABASE_URL: database.url,
    // The embedded database is the only one: a replica URL left in the shell must not take the lists.
    DATABASE_READ_URL: '',
    WEBHOOK_QUEUE: 'postgres',
    // The merchant server under test runs on this machine too.
    WEBHOOK_ALLOW_PRIVATE_URLS: process.env.WEBHOOK_ALLOW_PRIVATE_URLS ?? 'true',
  };
  const apiEnv = loadEnvOrExit(PaymentsApiEnv, local);
  const dispatcherEnv = loadEnvOrExit(WebhookDispatcherEnv, local);
  if (apiEnv.secretsKey.development) {
    console.warn(
      'payhook: SECRETS_KEY is not set: using the fixed development key (NODE_ENV=production requires one).',
    );
  }

  const apps: INestApplication[] = [];
  let stopping = false;
  const stop = async (exitCode: number) => {
    // npm and scripts/start.mjs both pass a Ctrl-C or SIGTERM on: the second one must not cut the drain short.
    if (stopping) return;
    stopping = true;
    // The API first (no new events), then the dispatcher drains its deliveries, then the database.
    for (const app of apps) await app.close().catch((error: unknown) => console.error(String(error)));
    await database.stop();
    console.log(`payhook: stopped; the data stays in ${dataDir}`);
    process.exit(exitCode);
  };
  // SIGHUP: the terminal closed. The database is in a process group of its own and hears none of these.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void stop(0));

  try {
    startupProgress.set('setting up the payments API');
    const api = await createPaymentsApi(apiEnv, { shutdownHooks: false, sharesProcess: true });
    apps.push(api);
    startupProgress.set('setting up the webhook dispatcher');
    const dispatcher = await createWebhookDispatcher(dispatcherEnv, { shutdownHooks: false, sharesProcess: true });
    apps.push(dispatcher);
    startupProgress.set(`starting HTTP on ports ${apiEnv.PORT} and ${dispatcherEnv.DISPATCHER_PORT}`);
    // The README's admin token is known to all and private webhook targets are allowed: this machine only.
    await listenWithBacklog(api, apiEnv.PORT, apiEnv.HOST ?? '127.0.0.1');
    await dispatcher.listen(dispatcherEnv.DISPATCHER_PORT, dispatcherEnv.DISPATCHER_HOST);
    startFinished();
    announcePaymentsApi(api);
    announceWebhookDispatcher(dispatcher);
  } catch (error) {
    console.error(`payhook cannot start: ${error instanceof Error ? error.message : String(error)}`);
    await stop(1);
  }
}

void main();
