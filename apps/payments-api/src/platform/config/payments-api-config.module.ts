import { Module, type DynamicModule } from '@nestjs/common';
import { ADMIN_TOKEN, RATE_LIMIT_PER_SECOND } from '@payhook/auth';
import { PaymentsApiEnv } from './payments-api.env';

/**
 * The validated configuration, for every module that reads it. Global as Nest's own ConfigModule is
 * (configuration is not a dependency worth an import line in every feature); nothing else is: a
 * feature's module imports the features it uses.
 */
@Module({})
export class PaymentsApiConfigModule {
  static forRoot(env: PaymentsApiEnv): DynamicModule {
    return {
      module: PaymentsApiConfigModule,
      global: true,
      providers: [
        { provide: PaymentsApiEnv, useValue: env },
        { provide: ADMIN_TOKEN, useValue: env.ADMIN_TOKEN },
        { provide: RATE_LIMIT_PER_SECOND, useValue: env.RATE_LIMIT_PER_SECOND },
      ],
      exports: [PaymentsApiEnv, ADMIN_TOKEN, RATE_LIMIT_PER_SECOND],
    };
  }
}
