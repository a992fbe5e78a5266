import { execFileSync } from 'node:child_process';
import { dropDatabase } from './drop-database';
import { TEST_ENV_KEYS } from './test-env';

/** Drops this run's database and vhost; every test run starts and ends clean. */
export default async function globalTeardown(): Promise<void> {
  const amqpUrl = process.env[TEST_ENV_KEYS.amqpUrl];
  if (amqpUrl) {
    execFileSync('rabbitmqctl', ['-q', 'delete_vhost', decodeURIComponent(new URL(amqpUrl).pathname.slice(1))]);
  }
  const url = process.env[TEST_ENV_KEYS.databaseUrl];
  if (!url) return;
  await dropDatabase(url);
}
