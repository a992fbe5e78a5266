import './tracing';
import 'reflect-metadata';
import { exitUnlessReachable, loadEnvOrExit, postgresAt, rabbitmqAt, startupProgress } from '@payhook/config';
import { createPaymentsApi } from './app.setup';
import { PaymentsApiEnv } from './platform/config/payments-api.env';
import { listenWithBacklog } from './platform/http/connection-limits';
import { announcePaymentsApi } from './listening';

async function main(): Promise<void> {
  // Nest holds its lines back until the app is created: a slow start says where it is (issue 24).
  const startFinished = startupProgress.reportSlowStart('payhook-payments-api');
  const env = loadEnvOrExit(PaymentsApiEnv);
  startupProgress.set('checking that its services answer');
  // A service that does not answer is one clear line and exit 1, not a stack trace from deep in a driver.
  await exitUnlessReachable([
    postgresAt(env.DATABASE_URL),
    ...(env.WEBHOOK_QUEUE === 'rabbitmq' ? [rabbitmqAt(env.amqpUrls)] : []),
  ]);
  if (env.secretsKey.development) {
    console.warn(
      'payhook: SECRETS_KEY is not set: using the fixed development key (NODE_ENV=production requires one).',
    );
  }
  startupProgress.set('setting up the app');
  const app = await createPaymentsApi(env);
  startupProgress.set(`starting HTTP on port ${env.PORT}`);
  await listenWithBacklog(app, env.PORT);
  startFinished();
  announcePaymentsApi(app);
}

void main();
