// The merchants feature's door: what the other rooms and the surfaces may use of it.
export { MerchantsModule } from './merchants.module';
// The entities the composition root registers with TypeORM.
export { ApiKeyEntity } from './api-key.entity';
export { MerchantEntity } from './merchant.entity';
// A merchant's own keys and settings, for the console's developers, settings and audit pages.
export { MerchantsService, type IssuedOwnKey } from './merchants.service';
export { MerchantException } from './merchant.exception';
// A console password's length, which the console's password forms keep too.
export { CONSOLE_PASSWORD_MAX_CHARS, CONSOLE_PASSWORD_MIN_CHARS } from './dto/approve-merchant.request.dto';
// How a console password is hashed and checked, the same for an owner, a member and a reset (console logins, team).
export { hashPassword, verifyPassword } from './password-hash';
// The operator's shapes of merchants and keys, for the OpenAPI documents the docs surface assembles.
export { MERCHANT_SCHEMAS } from './merchants.schemas';
