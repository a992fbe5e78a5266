import { Module } from '@nestjs/common';
import { SigningSecretsRekeyer } from './signing-secrets.rekeyer';
import { WebhookEndpointsController } from './webhook-endpoints.controller';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';
import { WebhookEndpointsService } from './webhook-endpoints.service';

@Module({
  controllers: [WebhookEndpointsController],
  providers: [WebhookEndpointsRepository, WebhookEndpointsService, SigningSecretsRekeyer],
  exports: [WebhookEndpointsRepository, WebhookEndpointsService],
})
export class WebhookEndpointsModule {}
