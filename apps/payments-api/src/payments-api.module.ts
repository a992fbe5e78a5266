import { LoggerModule } from 'nestjs-pino';
import type { DestinationStream } from 'pino';
import { loggingParams } from '@payhook/observability';
import { Module, type DynamicModule, type Type } from '@nestjs/common';
import { WebhookQueueModule } from '@payhook/messaging';
import { ReadDatabaseModule, typeOrmRootModule, type DataSourceConfig } from '@payhook/persistence';
import { ApiKeyEntity, MerchantEntity, MerchantsModule } from './accounts/merchants';
// Direct, not through the merchants door: the operator routes' module imports the integration tests'
// (a merchant's page shows its latest test), whose modules import MerchantsModule from that door; offered
// there, it would close an import cycle in which OnboardingModule is read before it is defined.
// eslint-disable-next-line @typescript-eslint/no-restricted-imports -- the cycle above
import { MerchantsAdminModule } from './accounts/merchants/merchants-admin.module';
import { AuthThrottleModule } from './accounts/auth-throttle';
import { PaymentsApiConfigModule } from './platform/config/payments-api-config.module';
import type { PaymentsApiEnv } from './platform/config/payments-api.env';
import { ConsoleModule } from './surfaces/console/console.module';
import { EventsModule } from './webhooks/events';
import { HealthModule } from './surfaces/health/health.module';
import { HolidaysModule } from './money/holidays';
import { ListenSessionsModule } from './webhooks/listen-sessions';
import { OpenApiModule } from './surfaces/docs/openapi.module';
import { AuditModule } from './core/audit';
import { OnboardingModule } from './webhooks/integration-tests';
import { OutboxModule } from './webhooks/outbox';
import { PayScreenModule } from './surfaces/pay-screen/pay-screen.module';
import { PaymentsModule } from './money/payments';
import { RefundsModule } from './money/refunds';
import { CashReceiptsModule } from './money/cash-receipts';
import { EscrowModule } from './money/escrow';
import { SettlementsModule } from './money/settlements';
import { DepositsModule } from './money/deposits';
import { ReviewsModule } from './money/reviews';
import { VouchersModule } from './money/vouchers';
import { WebhookEndpointsModule } from './webhooks/endpoints';
import { WebhookNoticesModule } from './webhooks/notices';

@Module({})
export class PaymentsApiModule {
  /** The whole API for one validated configuration; tests pass their own. */
  static forRoot(
    env: PaymentsApiEnv,
    logging: { destination?: DestinationStream; service?: string } = {},
    extraModules: Type[] = [],
  ): DynamicModule {
    return {
      module: PaymentsApiModule,
      imports: [
        PaymentsApiConfigModule.forRoot(env),
        LoggerModule.forRoot(
          loggingParams({
            service: logging.service ?? 'payments-api',
            level: env.LOG_LEVEL,
            format: env.logFormat,
            destination: logging.destination,
          }),
        ),
        typeOrmRootModule(databaseConfig(env)),
        // The lists' connection: DATABASE_READ_URL's own pool with the same settings, or the one above.
        ReadDatabaseModule.forRoot(databaseConfig(env), env.DATABASE_READ_URL),
        WebhookQueueModule.forRoot(env, 'payhook-payments-api'),
        AuditModule,
        MerchantsModule,
        PaymentsModule,
        RefundsModule,
        CashReceiptsModule,
        EscrowModule,
        AuthThrottleModule,
        MerchantsAdminModule,
        WebhookEndpointsModule,
        WebhookNoticesModule,
        EventsModule,
        ListenSessionsModule,
        OutboxModule,
        PayScreenModule,
        OnboardingModule,
        ConsoleModule,
        SettlementsModule,
        HolidaysModule,
        OpenApiModule,
        DepositsModule,
        VouchersModule,
        ReviewsModule,
        HealthModule,
        ...extraModules,
      ],
    };
  }
}

/** The primary's pool; the read pool of DATABASE_READ_URL takes the same settings. */
function databaseConfig(env: PaymentsApiEnv): DataSourceConfig {
  return {
    url: env.DATABASE_URL,
    entities: [MerchantEntity, ApiKeyEntity],
    applicationName: 'payhook-payments-api',
    poolSize: 20,
  };
}
