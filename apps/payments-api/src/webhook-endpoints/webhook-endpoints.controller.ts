import { Body, Controller, Get, HttpCode, Post, Put, UseGuards } from '@nestjs/common';
import { ApiKeyGuard, CurrentAuth, type AuthContext } from '@payhook/auth';
import type { DataEnvelope } from '@payhook/contracts';
import { PutWebhookEndpointRequestDto } from './dto/put-webhook-endpoint.request.dto';
import { toWebhookEndpointView, type WebhookEndpointView } from './webhook-endpoint.record';
import { WebhookEndpointsService } from './webhook-endpoints.service';

/** The merchant's webhook endpoint for the mode of the key used. */
@Controller('v1/webhook-endpoint')
@UseGuards(ApiKeyGuard)
export class WebhookEndpointsController {
  constructor(private readonly endpoints: WebhookEndpointsService) {}

  @Get()
  async get(@CurrentAuth() auth: AuthContext): Promise<DataEnvelope<WebhookEndpointView>> {
    return { data: toWebhookEndpointView(await this.endpoints.get(auth)) };
  }

  @Put()
  async put(
    @CurrentAuth() auth: AuthContext,
    @Body() body: PutWebhookEndpointRequestDto,
  ): Promise<DataEnvelope<WebhookEndpointView>> {
    return { data: toWebhookEndpointView(await this.endpoints.put(auth, body.url, body.enabledEvents)) };
  }

  @Post('rotate-secret')
  @HttpCode(200)
  async rotateSecret(@CurrentAuth() auth: AuthContext): Promise<DataEnvelope<WebhookEndpointView>> {
    return { data: toWebhookEndpointView(await this.endpoints.rotateSecret(auth)) };
  }
}
