import { Body, Controller, Get, HttpCode, Post, Put, UseGuards } from '@nestjs/common';
import { ApiKeyGuard, CurrentAuth, type AuthContext } from '@payhook/auth';
import { ApiActor, type AuditActor } from '../../core/audit';
import type { DataEnvelope } from '@payhook/contracts';
import { PutWebhookEndpointRequestDto } from './dto/put-webhook-endpoint.request.dto';
import { RotateSecretRequestDto } from './dto/rotate-secret.request.dto';
import { toWebhookEndpointView, type WebhookEndpointView } from './webhook-endpoint.record';
import { WebhookEndpointsService } from './webhook-endpoints.service';
import { ApiBody, ApiTags } from '@nestjs/swagger';
import { dataOf } from '../../platform/openapi/schema-builders';
import { ApiRoute, BODY_ERRORS } from '../../platform/openapi/api-route.decorator';
import { NoStore } from '../../platform/http/no-store';

/** The merchant's webhook endpoint for the mode of the key used; every answer carries its signing secret. */
@ApiTags('webhooks')
@Controller('v1/webhook-endpoint')
@UseGuards(ApiKeyGuard)
export class WebhookEndpointsController {
  constructor(private readonly endpoints: WebhookEndpointsService) {}

  @Get()
  @NoStore()
  @ApiRoute({
    summary: "The key's mode's endpoint with its health",
    status: 200,
    response: dataOf('WebhookEndpoint'),
    errors: ['resource_not_found'],
  })
  async get(@CurrentAuth() auth: AuthContext): Promise<DataEnvelope<WebhookEndpointView>> {
    return { data: toWebhookEndpointView(await this.endpoints.get(auth)) };
  }

  @Put()
  @NoStore()
  @ApiRoute({
    summary: 'Set the URL and the event types sent; re-enables a disabled endpoint and keeps its secret',
    status: 200,
    response: dataOf('WebhookEndpoint'),
    errors: [...BODY_ERRORS],
  })
  async put(
    @CurrentAuth() auth: AuthContext,
    @ApiActor() by: AuditActor,
    @Body() body: PutWebhookEndpointRequestDto,
  ): Promise<DataEnvelope<WebhookEndpointView>> {
    return { data: toWebhookEndpointView(await this.endpoints.put(auth, body.url, body.enabledEvents, by)) };
  }

  @Post('rotate-secret')
  @NoStore()
  @ApiRoute({
    summary: 'A new signing secret, which signs from now on; the old one may overlap for webhook-signature',
    status: 200,
    response: dataOf('WebhookEndpoint'),
    errors: ['resource_not_found', ...BODY_ERRORS],
  })
  // The body is optional: an empty POST rotates without an overlap, as before.
  @ApiBody({ type: RotateSecretRequestDto, required: false })
  @HttpCode(200)
  async rotateSecret(
    @CurrentAuth() auth: AuthContext,
    @ApiActor() by: AuditActor,
    @Body() body: RotateSecretRequestDto,
  ): Promise<DataEnvelope<WebhookEndpointView>> {
    const rotated = await this.endpoints.rotateSecret(auth, body.previousSecretExpiresIn ?? 0, by);
    return { data: toWebhookEndpointView(rotated) };
  }
}
