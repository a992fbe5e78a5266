import { Module } from '@nestjs/common';
import { WebhookEndpointsController } from './webhook-endpoints.controller';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';
import { WebhookEndpointsService } from './webhook-endpoints.service';

@Module({
  controllers: [WebhookEndpointsController],
  providers: [WebhookEndpointsRepository, WebhookEndpointsService],
  exports: [WebhookEndpointsRepository, WebhookEndpointsService],
})
export class WebhookEndpointsModule {}
