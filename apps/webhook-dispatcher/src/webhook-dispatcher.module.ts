import { Module, type DynamicModule } from '@nestjs/common';
import { WebhookQueueModule } from '@payhook/messaging';
import { typeOrmRootModule } from '@payhook/persistence';
import { WebhookDispatcherEnv } from './config/webhook-dispatcher.env';
import { DeliveriesModule } from './deliveries/deliveries.module';
import { HealthModule } from './health/health.module';

@Module({})
export class WebhookDispatcherModule {
  static forRoot(env: WebhookDispatcherEnv): DynamicModule {
    return {
      module: WebhookDispatcherModule,
      global: true,
      imports: [
        typeOrmRootModule({
          url: env.DATABASE_URL,
          entities: [],
          applicationName: 'payhook-webhook-dispatcher',
        }),
        WebhookQueueModule.forRoot(env, 'payhook-webhook-dispatcher'),
        DeliveriesModule,
        HealthModule,
      ],
      providers: [{ provide: WebhookDispatcherEnv, useValue: env }],
      exports: [WebhookDispatcherEnv],
    };
  }
}
