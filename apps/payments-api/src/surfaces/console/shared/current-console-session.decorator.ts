import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { ConsoleSession } from './console-session';
import type { ConsoleRequest } from './console-session.guard';

/** The session ConsoleSessionGuard resolved; only valid on routes that use the guard. */
export const CurrentConsoleSession = createParamDecorator((_: unknown, context: ExecutionContext): ConsoleSession => {
  const session = context.switchToHttp().getRequest<ConsoleRequest>().consoleSession;
  if (!session) throw new Error('CurrentConsoleSession used on a route without ConsoleSessionGuard');
  return session;
});
