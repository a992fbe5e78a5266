import { execFileSync } from 'node:child_process';
import { dropDatabase } from './drop-database';
import { TEST_ENV_KEYS } from './test-env';

/**
 * Drops this run's database, its template and its vhost; every test run starts and ends clean.
 * Once per run, however many tiers' teardowns call it.
 */
export default async function globalTeardown(): Promise<void> {
  const amqpUrl = process.env[TEST_ENV_KEYS.amqpUrl];
  if (amqpUrl) {
    execFileSync('rabbitmqctl', ['-q', 'delete_vhost', decodeURIComponent(new URL(amqpUrl).pathname.slice(1))]);
    delete process.env[TEST_ENV_KEYS.amqpUrl];
  }
  for (const key of [TEST_ENV_KEYS.databaseUrl, TEST_ENV_KEYS.templateDatabaseUrl]) {
    const url = process.env[key];
    if (url) await dropDatabase(url);
    delete process.env[key];
  }
}
