import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { AuthenticatedRequest } from '@payhook/auth';
import type { AuditActor } from './audit-entry';

/** Who made a change through the merchant API, for the audit log: the API key's id and the client address. */
export const ApiActor = createParamDecorator((_: unknown, context: ExecutionContext): AuditActor => {
  const request = context.switchToHttp().getRequest<AuthenticatedRequest & { ip?: string }>();
  if (!request.auth) throw new Error('ApiActor used on a route without ApiKeyGuard');
  return { actor: request.auth.keyId, clientAddress: request.ip ?? null };
});
