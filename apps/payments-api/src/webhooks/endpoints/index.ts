// The webhook endpoints feature's door: what the other rooms and the surfaces may use of it.
export { WebhookEndpointsModule } from './webhook-endpoints.module';
export { WebhookEndpointsService } from './webhook-endpoints.service';
export { MAX_ENDPOINTS_PER_MODE, WebhookEndpointsRepository } from './webhook-endpoints.repository';
export type { WebhookEndpointRecord } from './webhook-endpoint.record';
// The endpoint bodies' rules, which the console's endpoint forms are checked by too, and the enabled events'
// rule, which a listen session's body keeps too.
export { EnabledEvents, PutWebhookEndpointRequestDto } from './dto/put-webhook-endpoint.request.dto';
export {
  CreateWebhookEndpointRequestDto,
  ENDPOINT_DESCRIPTION_MAX_CHARS,
  UpdateWebhookEndpointRequestDto,
} from './dto/webhook-endpoint-resource.request.dto';
// Its response shapes, for the OpenAPI documents the docs surface assembles.
export { WEBHOOK_ENDPOINT_RESOURCE_SCHEMAS, WEBHOOK_ENDPOINT_SCHEMAS } from './webhook-endpoints.schemas';
