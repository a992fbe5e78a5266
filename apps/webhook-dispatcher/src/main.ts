import './tracing';
import 'reflect-metadata';
import { exitUnlessReachable, loadEnvOrExit, postgresAt, rabbitmqAt } from '@payhook/config';
import { createWebhookDispatcher } from './app.setup';
import { WebhookDispatcherEnv } from './config/webhook-dispatcher.env';
import { announceWebhookDispatcher } from './listening';

async function main(): Promise<void> {
  const env = loadEnvOrExit(WebhookDispatcherEnv);
  // A service that does not answer is one clear line and exit 1, not a stack trace from deep in a driver.
  await exitUnlessReachable([
    postgresAt(env.DATABASE_URL),
    ...(env.WEBHOOK_QUEUE === 'rabbitmq' ? [rabbitmqAt(env.AMQP_URL)] : []),
  ]);
  if (env.secretsKey.development) {
    console.warn(
      'payhook: SECRETS_KEY is not set: using the fixed development key (NODE_ENV=production requires one).',
    );
  }
  const app = await createWebhookDispatcher(env);
  await app.listen(env.DISPATCHER_PORT, env.DISPATCHER_HOST);
  announceWebhookDispatcher(app);
}

void main();
