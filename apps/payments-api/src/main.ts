import './tracing';
import 'reflect-metadata';
import { exitUnlessReachable, loadEnvOrExit, postgresAt, rabbitmqAt } from '@payhook/config';
import { createPaymentsApi } from './app.setup';
import { PaymentsApiEnv } from './config/payments-api.env';
import { announcePaymentsApi } from './listening';

async function main(): Promise<void> {
  const env = loadEnvOrExit(PaymentsApiEnv);
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
  const app = await createPaymentsApi(env);
  await app.listen(env.PORT);
  announcePaymentsApi(app);
}

void main();
