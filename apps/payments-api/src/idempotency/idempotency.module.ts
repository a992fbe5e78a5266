import { Module } from '@nestjs/common';
import { IdempotencyKeyPurger } from './idempotency-key.purger';
import { IdempotencyKeysRepository } from './idempotency-keys.repository';

@Module({ providers: [IdempotencyKeysRepository, IdempotencyKeyPurger], exports: [IdempotencyKeysRepository] })
export class IdempotencyModule {}
