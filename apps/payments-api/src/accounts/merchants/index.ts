// The merchants feature's door: what the other rooms and the surfaces may use of it.
export { MerchantsModule } from './merchants.module';
// A console password's length, which the console's password forms keep too.
export { CONSOLE_PASSWORD_MAX_CHARS, CONSOLE_PASSWORD_MIN_CHARS } from './dto/approve-merchant.request.dto';
// The operator's shapes of merchants and keys, for the OpenAPI documents the docs surface assembles.
export { MERCHANT_SCHEMAS } from './merchants.schemas';
