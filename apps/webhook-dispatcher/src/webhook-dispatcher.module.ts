import { Module, type DynamicModule } from '@nestjs/common';
import { WebhookQueueModule } from '@payhook/messaging';
import { loggingParams } from '@payhook/observability';
import { LoggerModule } from 'nestjs-pino';
import type { DestinationStream } from 'pino';
import { typeOrmRootModule } from '@payhook/persistence';
import { WebhookDispatcherEnv } from './config/webhook-dispatcher.env';
import { WebhookAttemptsModule } from './attempts/webhook-attempts.purger';
import { DeliveriesModule } from './deliveries/deliveries.module';
import { HealthModule } from './health/health.module';
import { WARM_CONNECTIONS } from './deliveries/pool-warm-up';

@Module({})
export class WebhookDispatcherModule {
  static forRoot(
    env: WebhookDispatcherEnv,
    logging: { destination?: DestinationStream; service?: string } = {},
  ): DynamicModule {
    return {
      module: WebhookDispatcherModule,
      global: true,
      imports: [
        LoggerModule.forRoot(
          loggingParams({
            service: logging.service ?? 'webhook-dispatcher',
            level: env.LOG_LEVEL,
            format: env.logFormat,
            destination: logging.destination,
          }),
        ),
        typeOrmRootModule({
          url: env.DATABASE_URL,
          entities: [],
          applicationName: 'payhook-webhook-dispatcher',
          minConnections: WARM_CONNECTIONS,
          // Its statements find deliveries, events and endpoints by their keys, batch after batch.
          keyedReadsOnly: true,
        }),
        WebhookQueueModule.forRoot(env, 'payhook-webhook-dispatcher'),
        DeliveriesModule,
        WebhookAttemptsModule,
        HealthModule,
      ],
      providers: [{ provide: WebhookDispatcherEnv, useValue: env }],
      exports: [WebhookDispatcherEnv],
    };
  }
}
