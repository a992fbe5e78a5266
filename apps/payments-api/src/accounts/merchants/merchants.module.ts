import { Module } from '@nestjs/common';
import { ApiKeyAuthenticator, ApiKeyResolver, RateLimitStore } from '@payhook/auth';
import { ApiKeyLookup } from './api-key-lookup';
import { MerchantsRepository } from './merchants.repository';
import { MerchantsService } from './merchants.service';
import { RateLimitBuckets } from './rate-limit-buckets';
import { AuditModule } from '../../core/audit';

/** Merchants and their API keys; a feature with API-key routes imports it for ApiKeyGuard. */
@Module({
  imports: [AuditModule],
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
