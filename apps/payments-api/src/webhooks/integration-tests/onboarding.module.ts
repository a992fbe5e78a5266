import { Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { WebhookHttpClient } from '@payhook/webhook-http';
import { PaymentsApiEnv } from '../../platform/config/payments-api.env';
import { EventsModule } from '../events';
import { PaymentsModule } from '../../money/payments';
import { WebhookEndpointsModule } from '../endpoints';
import { IntegrationTestRunner } from './integration-test.runner';
import { IntegrationTestsController } from './integration-tests.controller';
import { IntegrationTestsRepository } from './integration-tests.repository';
import { IntegrationTestsService } from './integration-tests.service';
import { MerchantsModule } from '../../accounts/merchants';

@Module({
  imports: [PaymentsModule, EventsModule, WebhookEndpointsModule, MerchantsModule],
  controllers: [IntegrationTestsController],
  providers: [
    IntegrationTestsRepository,
    IntegrationTestsService,
    IntegrationTestRunner,
    {
      provide: WebhookHttpClient,
      inject: [PaymentsApiEnv],
      useFactory: (env: PaymentsApiEnv) => WebhookHttpClient.fromConfig(env),
    },
  ],
  exports: [IntegrationTestsRepository, IntegrationTestsService],
})
export class OnboardingModule implements OnApplicationShutdown {
  constructor(@Inject(WebhookHttpClient) private readonly http: WebhookHttpClient) {}

  async onApplicationShutdown(): Promise<void> {
    await this.http.close();
  }
}
