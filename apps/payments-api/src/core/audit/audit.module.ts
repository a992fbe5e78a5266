import { Global, Module } from '@nestjs/common';
import { AuditLog } from './audit-log';

/** Global: every feature that changes keys, endpoints, secrets, members, refunds or cancels records it. */
@Global()
@Module({ providers: [AuditLog], exports: [AuditLog] })
export class AuditModule {}
