import { Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { WebhookDispatcherEnv } from '../config/webhook-dispatcher.env';
import { DeliveriesRepository } from './deliveries.repository';
import { DeliverWebhookService } from './deliver-webhook.service';
import { DeliveryMetrics } from './delivery.metrics';
import { WebhookDeliveriesConsumer } from './webhook-deliveries.consumer';
import { WebhookHttpClient } from '@payhook/webhook-http';

@Module({
  providers: [
    DeliveriesRepository,
    DeliverWebhookService,
    DeliveryMetrics,
    WebhookDeliveriesConsumer,
    {
      provide: WebhookHttpClient,
      inject: [WebhookDispatcherEnv],
      useFactory: (env: WebhookDispatcherEnv) => WebhookHttpClient.fromConfig(env),
    },
  ],
  exports: [DeliveryMetrics],
})
export class DeliveriesModule implements OnApplicationShutdown {
  constructor(@Inject(WebhookHttpClient) private readonly http: WebhookHttpClient) {}

  async onApplicationShutdown(): Promise<void> {
    await this.http.close();
  }
}
