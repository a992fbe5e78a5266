import { Module } from '@nestjs/common';
import { IdempotencyKeyPurger } from './idempotency-key.purger';
import { IdempotencyKeysRepository } from './idempotency-keys.repository';
import { KeyedFingerprints } from './keyed-fingerprints';

@Module({
  providers: [IdempotencyKeysRepository, IdempotencyKeyPurger, KeyedFingerprints],
  exports: [IdempotencyKeysRepository, KeyedFingerprints],
})
export class IdempotencyModule {}
