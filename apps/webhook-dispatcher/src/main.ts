import 'reflect-metadata';
import { loadEnvOrExit } from '@payhook/config';
import { createWebhookDispatcher } from './app.setup';
import { WebhookDispatcherEnv } from './config/webhook-dispatcher.env';

async function main(): Promise<void> {
  const env = loadEnvOrExit(WebhookDispatcherEnv);
  const app = await createWebhookDispatcher(env);
  await app.listen(env.DISPATCHER_PORT);
}

void main();
