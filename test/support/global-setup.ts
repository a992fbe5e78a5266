import {
  assertTestDatabase,
  dataSourceOptions,
  ensureDatabase,
  runMigrations,
  withDatabase,
} from '../../libs/persistence/src';
import { connect } from 'amqplib';
import { randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { createFromTemplate } from './template-database';
import { AMQP_URL, POSTGRES_URL, TEST_ENV_KEYS } from './test-env';

/** Fails fast, naming host and port, when Postgres or RabbitMQ does not answer. */
async function assertReachable(): Promise<void> {
  const pg = new Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 3000 });
  await pg.connect().catch((error: unknown) => {
    throw new Error(`Postgres at ${new URL(POSTGRES_URL).host} is not reachable: ${String(error)}`);
  });
  await pg.end();
  const amqp = await connect(AMQP_URL, { timeout: 3000 }).catch((error: unknown) => {
    throw new Error(`RabbitMQ at ${new URL(AMQP_URL).host} is not reachable: ${String(error)}`);
  });
  await amqp.close();
}

/**
 * One database and one vhost for the run, whichever tiers it selects: the tiers share this file as
 * their global setup, and the scenarios' setup calls it too, so a run that selects several sets up once.
 */
export default async function globalSetup(): Promise<void> {
  if (process.env[TEST_ENV_KEYS.databaseUrl]) return;
  await assertReachable();
  const runId = `${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  // The real migrations, once, into a template nobody connects to: the run's database and every
  // spec's own are copies of it (CREATE DATABASE … TEMPLATE), the production schema in well under a second.
  const templateUrl = withDatabase(POSTGRES_URL, `payhook_${runId}_template_test`);
  assertTestDatabase(templateUrl);
  await ensureDatabase(templateUrl);
  const dataSource = await new DataSource(
    dataSourceOptions({ url: templateUrl, entities: [], applicationName: 'payhook-tests' }),
  ).initialize();
  try {
    await runMigrations(dataSource);
  } finally {
    await dataSource.destroy();
  }
  process.env[TEST_ENV_KEYS.templateDatabaseUrl] = templateUrl;
  const databaseUrl = withDatabase(POSTGRES_URL, `payhook_${runId}_test`);
  await createFromTemplate(databaseUrl);

  // A vhost of its own: every exchange and queue of the run disappears with it at the end.
  const vhost = `payhook_${runId}_test`;
  execFileSync('rabbitmqctl', ['-q', 'add_vhost', vhost]);
  execFileSync('rabbitmqctl', [
    '-q',
    'set_permissions',
    '-p',
    vhost,
    new URL(AMQP_URL).username || 'guest',
    '.*',
    '.*',
    '.*',
  ]);
  const amqpUrl = new URL(AMQP_URL);
  amqpUrl.pathname = `/${vhost}`;

  process.env[TEST_ENV_KEYS.databaseUrl] = databaseUrl;
  process.env[TEST_ENV_KEYS.amqpUrl] = amqpUrl.toString();
  process.env[TEST_ENV_KEYS.amqpNamespace] = `payhook_test_${runId}`;
}
