import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import type { AuditActor } from '../../../core/audit';
import type { ConsoleSession } from './console-session';
import type { ConsoleRequest } from './console-session.guard';

/** Who made a console change, for the audit log: the member's email and the client address. */
export const consoleActor = (session: ConsoleSession, request: Request): AuditActor => ({
  actor: session.member.email,
  clientAddress: request.ip ?? null,
});

/** The same, as a handler parameter: `@ConsoleActorOf() by: AuditActor` on a route guarded by ConsoleSessionGuard. */
export const ConsoleActorOf = createParamDecorator((_: unknown, context: ExecutionContext): AuditActor => {
  const request = context.switchToHttp().getRequest<ConsoleRequest>();
  if (!request.consoleSession) throw new Error('ConsoleActorOf used on a route without ConsoleSessionGuard');
  return consoleActor(request.consoleSession, request);
});
