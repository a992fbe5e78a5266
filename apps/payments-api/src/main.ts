import 'reflect-metadata';
import { loadEnvOrExit } from '@payhook/config';
import { createPaymentsApi } from './app.setup';
import { PaymentsApiEnv } from './config/payments-api.env';

async function main(): Promise<void> {
  const env = loadEnvOrExit(PaymentsApiEnv);
  const app = await createPaymentsApi(env);
  await app.listen(env.PORT);
}

void main();
