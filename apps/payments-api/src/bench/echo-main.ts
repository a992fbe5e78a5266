import '../tracing';
import 'reflect-metadata';
import { loadEnvOrExit } from '@payhook/config';
import { createPaymentsApi } from '../app.setup';
import { PaymentsApiEnv } from '../platform/config/payments-api.env';
import { EchoModule } from './echo.controller';

/**
 * `npm run bench`'s payments-api: the app as main.ts makes it, plus the echo route that measures the
 * framework's ceiling. The app itself never registers that route.
 */
async function main(): Promise<void> {
  const env = loadEnvOrExit(PaymentsApiEnv);
  const app = await createPaymentsApi(env, { extraModules: [EchoModule] });
  await app.listen(env.PORT);
}

void main();
