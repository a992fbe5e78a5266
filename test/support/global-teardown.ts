import { databaseName, withDatabase } from '../../libs/persistence/src';
import { execFileSync } from 'node:child_process';
import { Client } from 'pg';
import { TEST_ENV_KEYS } from './test-env';

/** Drops this run's database and vhost; every test run starts and ends clean. */
export default async function globalTeardown(): Promise<void> {
  const amqpUrl = process.env[TEST_ENV_KEYS.amqpUrl];
  if (amqpUrl) {
    execFileSync('rabbitmqctl', ['-q', 'delete_vhost', decodeURIComponent(new URL(amqpUrl).pathname.slice(1))]);
  }
  const url = process.env[TEST_ENV_KEYS.databaseUrl];
  if (!url) return;
  const admin = new Client({ connectionString: withDatabase(url, 'postgres') });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${databaseName(url)}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}
