import type { INestApplication } from '@nestjs/common';
import type { DestinationStream } from 'pino';
import { loadEnv } from '@payhook/config';
import { createWebhookDispatcher } from '../../apps/webhook-dispatcher/src/app.setup';
import { WebhookDispatcherEnv } from '../../apps/webhook-dispatcher/src/config/webhook-dispatcher.env';
import { testAmqpNamespace, testAmqpUrl, testDatabaseUrl, testWebhookQueue } from './test-env';

/** A webhook-dispatcher booted as main.ts boots it, on this run's database and vhost. */
export async function startDispatcher(
  overrides: Record<string, string> = {},
  /** Every line of the app as pino writes it (Nest's own too), instead of errors on the console. */
  logDestination?: DestinationStream,
): Promise<INestApplication> {
  const env = loadEnv(WebhookDispatcherEnv, {
    DATABASE_URL: testDatabaseUrl(),
    AMQP_URL: testAmqpUrl(),
    AMQP_NAMESPACE: testAmqpNamespace(),
    WEBHOOK_QUEUE: testWebhookQueue(),
    // The run's shared namespace holds classic queues, also for a spec that sets NODE_ENV=production.
    AMQP_QUEUE_TYPE: 'classic',
    // Receivers in the specs listen on 127.0.0.1.
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    NODE_ENV: 'test',
    WEBHOOK_RETRY_SCHEDULE: '200ms,400ms',
    // Catches a hang only: an endpoint on 127.0.0.1 has answered after 3 s on a loaded CI host, and
    // a 2 s timeout then recorded its answer as a timeout. A spec about timeouts sets its own.
    WEBHOOK_TIMEOUT_MS: '10000',
    LOG_LEVEL: logDestination ? 'info' : 'error',
    ...overrides,
  });
  const app = await createWebhookDispatcher(env, logDestination ? { logDestination } : { logger: ['error'] });
  await app.listen(0, '127.0.0.1');
  return app;
}
