import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { AuthContext } from './auth-context';
import type { AuthenticatedRequest } from './api-key.guard';

/** The caller resolved by ApiKeyGuard; only valid on routes that use the guard. */
export const CurrentAuth = createParamDecorator((_: unknown, context: ExecutionContext): AuthContext => {
  const auth = context.switchToHttp().getRequest<AuthenticatedRequest>().auth;
  if (!auth) throw new Error('CurrentAuth used on a route without ApiKeyGuard');
  return auth;
});
