import { Body, Controller, Delete, Get, HttpCode, Patch, Post, Query, UseGuards } from '@nestjs/common';
import { ApiBody, ApiTags } from '@nestjs/swagger';
import { ApiKeyGuard, CurrentAuth, type AuthContext } from '@payhook/auth';
import { ApiActor, type AuditActor } from '../../core/audit';
import type { DataEnvelope, ListEnvelope } from '@payhook/contracts';
import { IdParam } from '../../platform/http/id-param';
import { decodeCursor, encodeCursor } from '../../platform/http/keyset-cursor';
import { NoStore } from '../../platform/http/no-store';
import { PageQueryDto } from '../../platform/http/page-query.dto';
import { ApiRoute, BODY_ERRORS } from '../../platform/openapi/api-route.decorator';
import { dataOf, listOf } from '../../platform/openapi/schema-builders';
import { RotateSecretRequestDto } from './dto/rotate-secret.request.dto';
import {
  CreateWebhookEndpointRequestDto,
  UpdateWebhookEndpointRequestDto,
} from './dto/webhook-endpoint-resource.request.dto';
import { WebhookEndpointException } from './webhook-endpoint.exception';
import { toWebhookEndpointResourceView, type WebhookEndpointResourceView } from './webhook-endpoint.record';
import { WebhookEndpointsService } from './webhook-endpoints.service';

const DEFAULT_PAGE_SIZE = 20;

type EndpointEnvelope = DataEnvelope<WebhookEndpointResourceView>;

/**
 * The merchant's webhook endpoints of the key's mode as a resource: up to 16, each
 * with its own secret, event types and health. Every answer carries the endpoint's signing secret.
 */
@ApiTags('webhooks')
@Controller('v1/webhook-endpoints')
@UseGuards(ApiKeyGuard)
export class WebhookEndpointResourcesController {
  constructor(private readonly endpoints: WebhookEndpointsService) {}

  @Post()
  @NoStore()
  @ApiRoute({
    summary: 'Add an endpoint with its own secret (at most 16 per mode)',
    status: 201,
    response: dataOf('WebhookEndpointResource'),
    errors: [...BODY_ERRORS, 'endpoint_limit_reached'],
  })
  async create(
    @CurrentAuth() auth: AuthContext,
    @ApiActor() by: AuditActor,
    @Body() body: CreateWebhookEndpointRequestDto,
  ): Promise<EndpointEnvelope> {
    return { data: toWebhookEndpointResourceView(await this.endpoints.create(auth, body, by)) };
  }

  @Get()
  @NoStore()
  @ApiRoute({
    summary: "The mode's endpoints, oldest first",
    status: 200,
    response: listOf('WebhookEndpointResource'),
    errors: ['parameter_invalid', 'parameter_unknown'],
  })
  async list(
    @CurrentAuth() auth: AuthContext,
    @Query() query: PageQueryDto,
  ): Promise<ListEnvelope<WebhookEndpointResourceView>> {
    const limit = query.limit ? Number(query.limit) : DEFAULT_PAGE_SIZE;
    const after = query.cursor === undefined ? null : await this.position(auth, query.cursor);
    const rows = await this.endpoints.list(auth, after, limit + 1);
    const page = rows.slice(0, limit);
    const hasMore = rows.length > limit;
    const last = page.at(-1);
    return {
      data: page.map(toWebhookEndpointResourceView),
      hasMore,
      nextCursor: hasMore && last ? encodeCursor(last) : null,
    };
  }

  @Get(':id')
  @NoStore()
  @ApiRoute({
    summary: 'One endpoint with its health',
    status: 200,
    response: dataOf('WebhookEndpointResource'),
    errors: ['resource_not_found'],
  })
  async get(@CurrentAuth() auth: AuthContext, @IdParam('webhookEndpoint') id: string): Promise<EndpointEnvelope> {
    return { data: toWebhookEndpointResourceView(await this.endpoints.getById(auth, id)) };
  }

  @Patch(':id')
  @NoStore()
  @ApiRoute({
    summary: 'Change the URL, event types or description; re-enables a disabled endpoint',
    status: 200,
    response: dataOf('WebhookEndpointResource'),
    errors: ['resource_not_found', ...BODY_ERRORS],
  })
  async update(
    @CurrentAuth() auth: AuthContext,
    @ApiActor() by: AuditActor,
    @IdParam('webhookEndpoint') id: string,
    @Body() body: UpdateWebhookEndpointRequestDto,
  ): Promise<EndpointEnvelope> {
    return { data: toWebhookEndpointResourceView(await this.endpoints.update(auth, id, body, by)) };
  }

  @Delete(':id')
  @NoStore()
  @ApiRoute({
    summary: 'Delete an endpoint; what it was still owed ends failed (endpoint_deleted) shortly after',
    status: 200,
    response: dataOf('WebhookEndpointResource'),
    errors: ['resource_not_found'],
  })
  async delete(
    @CurrentAuth() auth: AuthContext,
    @ApiActor() by: AuditActor,
    @IdParam('webhookEndpoint') id: string,
  ): Promise<EndpointEnvelope> {
    return { data: toWebhookEndpointResourceView(await this.endpoints.delete(auth, id, by)) };
  }

  @Post(':id/rotate-secret')
  @NoStore()
  @ApiRoute({
    summary: 'A new signing secret for this endpoint; the old one may overlap for webhook-signature',
    status: 200,
    response: dataOf('WebhookEndpointResource'),
    errors: ['resource_not_found', ...BODY_ERRORS],
  })
  @ApiBody({ type: RotateSecretRequestDto, required: false })
  @HttpCode(200)
  async rotateSecret(
    @CurrentAuth() auth: AuthContext,
    @ApiActor() by: AuditActor,
    @IdParam('webhookEndpoint') id: string,
    @Body() body: RotateSecretRequestDto,
  ): Promise<EndpointEnvelope> {
    const endpoint = await this.endpoints.rotateSecretOf(auth, id, body.previousSecretExpiresIn ?? 0, by);
    return { data: toWebhookEndpointResourceView(endpoint) };
  }

  /** A cursor names an endpoint of the caller's at its exact creation instant; anything else is refused. */
  private async position(auth: AuthContext, cursor: string): Promise<{ createdAt: Date; id: string }> {
    const position = decodeCursor(cursor, 'webhookEndpoint');
    const at = position && (await this.endpoints.getById(auth, position.id).catch(() => null));
    if (!position || !at || at.createdAt.getTime() !== position.createdAt.getTime()) {
      throw new WebhookEndpointException('parameter_invalid', 'cursor is not a cursor this API returned.', 'cursor');
    }
    return position;
  }
}
