import { Module } from '@nestjs/common';
import { AuditLog } from './audit-log';

/** The audit log: every feature that changes keys, endpoints, secrets, members, refunds or cancels imports it. */
@Module({ providers: [AuditLog], exports: [AuditLog] })
export class AuditModule {}
