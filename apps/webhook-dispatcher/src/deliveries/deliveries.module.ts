import { Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { WebhookDispatcherEnv } from '../config/webhook-dispatcher.env';
import { DeliveriesRepository } from './deliveries.repository';
import { DeliverWebhookService } from './deliver-webhook.service';
import { DeliveryMetrics } from './delivery.metrics';
import { DeliveryStateController } from './delivery-state.controller';
import { DeliveryStateRepository } from './delivery-state.repository';
import { DeliveryStateSweeper } from './delivery-state.sweeper';
import { EndpointLanesRepository } from './endpoint-lanes.repository';
import { EndpointLanesWorker } from './endpoint-lanes.worker';
import { EndpointSlots, MAX_IN_FLIGHT_PER_ENDPOINT, SLOT_WAIT } from './endpoint-slots';
import { DeliveryPoolWarmUp } from './pool-warm-up';
import { WebhookDeliveriesController } from './webhook-deliveries.controller';
import { WebhookHttpClient } from '@payhook/webhook-http';

@Module({
  controllers: [WebhookDeliveriesController, DeliveryStateController],
  providers: [
    DeliveriesRepository,
    DeliveryStateRepository,
    DeliveryStateSweeper,
    DeliverWebhookService,
    DeliveryMetrics,
    EndpointLanesRepository,
    EndpointLanesWorker,
    DeliveryPoolWarmUp,
    // Shared by the broker consumer and the lane worker: one limit per endpoint per instance.
    {
      provide: EndpointSlots,
      inject: [DeliveryMetrics],
      useFactory: (metrics: DeliveryMetrics) =>
        new EndpointSlots(MAX_IN_FLIGHT_PER_ENDPOINT, (inUse) => metrics.endpointSlotsInUse.observe(inUse), SLOT_WAIT),
    },
    {
      provide: WebhookHttpClient,
      inject: [WebhookDispatcherEnv, DeliveryMetrics],
      useFactory: (env: WebhookDispatcherEnv, metrics: DeliveryMetrics) =>
        WebhookHttpClient.fromConfig(env, (inFlight) => metrics.webhookRequestsInFlight.observe(inFlight)),
    },
  ],
  exports: [DeliveryMetrics, DeliveryPoolWarmUp],
})
export class DeliveriesModule implements OnApplicationShutdown {
  constructor(@Inject(WebhookHttpClient) private readonly http: WebhookHttpClient) {}

  async onApplicationShutdown(): Promise<void> {
    await this.http.close();
  }
}
