import { Global, Module } from '@nestjs/common';
import { ApiKeyAuthenticator, ApiKeyResolver, RateLimitStore } from '@payhook/auth';
import { ApiKeyLookup } from './api-key-lookup';
import { MerchantsRepository } from './merchants.repository';
import { MerchantsService } from './merchants.service';
import { RateLimitBuckets } from './rate-limit-buckets';

/** Global so that every feature's ApiKeyGuard shares the one ApiKeyAuthenticator. */
@Global()
@Module({
  providers: [
    MerchantsRepository,
    MerchantsService,
    ApiKeyAuthenticator,
    { provide: ApiKeyResolver, useClass: ApiKeyLookup },
    { provide: RateLimitStore, useClass: RateLimitBuckets },
  ],
  exports: [MerchantsService, ApiKeyAuthenticator, ApiKeyResolver],
})
export class MerchantsModule {}
