// The webhook endpoints feature's door: what the other rooms and the surfaces may use of it.
// Its response shapes, for the OpenAPI documents the docs surface assembles.
export { WEBHOOK_ENDPOINT_RESOURCE_SCHEMAS, WEBHOOK_ENDPOINT_SCHEMAS } from './webhook-endpoints.schemas';
