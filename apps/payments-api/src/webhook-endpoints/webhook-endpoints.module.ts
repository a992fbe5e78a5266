import { Module } from '@nestjs/common';
import { PreviousSecretsPurger } from './previous-secrets.purger';
import { SigningSecretsRekeyer } from './signing-secrets.rekeyer';
import { WebhookEndpointsController } from './webhook-endpoints.controller';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';
import { WebhookEndpointsService } from './webhook-endpoints.service';

@Module({
  controllers: [WebhookEndpointsController],
  providers: [WebhookEndpointsRepository, WebhookEndpointsService, SigningSecretsRekeyer, PreviousSecretsPurger],
  exports: [WebhookEndpointsRepository, WebhookEndpointsService],
})
export class WebhookEndpointsModule {}
