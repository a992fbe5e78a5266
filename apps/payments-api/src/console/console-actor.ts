import type { Request } from 'express';
import type { AuditActor } from '../audit/audit-entry';
import type { ConsoleSession } from './console-session';

/** Who made a console change, for the audit log: the member's email and the client address. */
export const consoleActor = (session: ConsoleSession, request: Request): AuditActor => ({
  actor: session.member.email,
  clientAddress: request.ip ?? null,
});
