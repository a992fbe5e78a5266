// The merchants feature's door: what the other rooms and the surfaces may use of it.
export { MerchantsModule } from './merchants.module';
// The operator's shapes of merchants and keys, for the OpenAPI documents the docs surface assembles.
export { MERCHANT_SCHEMAS } from './merchants.schemas';
