/**
 * Where this test run's services live. Global setup creates a fresh `_test` database (and the
 * migrated template that specs copy theirs from), a RabbitMQ vhost of its own and, for the browser
 * tier, one Chromium, and passes them to the test workers through these variables.
 */
export const TEST_ENV_KEYS = {
  databaseUrl: 'PAYHOOK_TEST_DATABASE_URL',
  templateDatabaseUrl: 'PAYHOOK_TEST_TEMPLATE_DATABASE_URL',
  amqpUrl: 'PAYHOOK_TEST_AMQP_URL',
  amqpNamespace: 'PAYHOOK_TEST_AMQP_NAMESPACE',
  browserWsEndpoint: 'PAYHOOK_TEST_BROWSER_WS_ENDPOINT',
} as const;

export const POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const AMQP_URL = process.env.TEST_AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';

export function required(key: string): string {
  const value = process.env[key];
  if (!value) throw new Error(`${key} is not set: run the services tests through jest (global setup)`);
  return value;
}

export const testDatabaseUrl = () => required(TEST_ENV_KEYS.databaseUrl);
export const testTemplateDatabaseUrl = () => required(TEST_ENV_KEYS.templateDatabaseUrl);
export const testAmqpUrl = () => required(TEST_ENV_KEYS.amqpUrl);
export const testAmqpNamespace = () => required(TEST_ENV_KEYS.amqpNamespace);

/**
 * The webhook queue the apps of this run use: RabbitMQ, or the Postgres queue of local mode when
 * PAYHOOK_TEST_WEBHOOK_QUEUE=postgres (`npm run test:postgres-queue` runs the webhook specs so).
 */
export const testWebhookQueue = () => (process.env.PAYHOOK_TEST_WEBHOOK_QUEUE === 'postgres' ? 'postgres' : 'rabbitmq');
