// The audit log's door: what the features and the console may use of it.
// Its module and the log, for the features whose changes commit with their audit entry, and the console's audit page.
export { AuditModule } from './audit.module';
export { AuditLog, type AuditFilter, type AuditRecord } from './audit-log';
// Who made a change and what it was, as an entry records them: the API key's actor, the operator's, the actions.
export { ApiActor } from './api-actor.decorator';
export {
  AUDIT_ACTIONS,
  isAuditAction,
  OPERATOR_ACTOR,
  type AuditAction,
  type AuditActor,
  type AuditEntry,
} from './audit-entry';
