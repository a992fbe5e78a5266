import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { roleAllows, type MemberRole } from '../../../accounts/team';
import { formField, sameToken } from '../../../platform/html/cookies';
import { ConsoleAuthService } from '../../../accounts/console-logins';
import { BEFORE_SECOND_STEP, CONSOLE_ROLE } from './console-role.decorator';
import { consoleLocale, type ConsoleSession } from './console-session';
import { ConsoleSessionCookie } from './console-session-cookie';
import { ConsoleException } from './console.exception';

export type ConsoleRequest = Request & { consoleSession?: ConsoleSession };

const isRead = (method: string) => method === 'GET' || method === 'HEAD';

/**
 * Every console page but the login forms: a live session whose second step (if any) is done, the
 * member's role at least the route's (ConsoleRole), and on a POST the session's CSRF token in the
 * form. All are checked before the handler runs, so a refused POST changes nothing.
 */
@Injectable()
export class ConsoleSessionGuard implements CanActivate {
  constructor(
    private readonly auth: ConsoleAuthService,
    private readonly sessionCookie: ConsoleSessionCookie,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<ConsoleRequest>();
    const token = this.sessionCookie.read(request);
    const session = token ? await this.auth.session(token) : null;
    if (!session) throw new ConsoleException('login_required', 'Sign in to use the console.');
    // Set before the checks below: a refused request's page speaks the member's language too.
    request.consoleSession = { ...session, locale: consoleLocale(request, session) };
    const beforeSecondStep = this.reflector.getAllAndOverride<boolean | undefined>(BEFORE_SECOND_STEP, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (!session.verified && !beforeSecondStep) {
      throw new ConsoleException('second_step_required', 'Enter the code of your two-step login.');
    }
    const needed =
      this.reflector.getAllAndOverride<MemberRole | undefined>(CONSOLE_ROLE, [
        context.getHandler(),
        context.getClass(),
      ]) ?? (isRead(request.method) ? 'viewer' : 'owner');
    if (!roleAllows(session.member.role, needed)) {
      throw new ConsoleException('role_refused', `This needs the ${needed} role; you are ${session.member.role}.`, {
        needed,
        held: session.member.role,
      });
    }
    if (!isRead(request.method)) {
      if (!sameToken(session.csrfToken, formField(request.body, 'csrf'))) {
        throw new ConsoleException('csrf_invalid', 'This form has expired or did not come from the console.');
      }
    }
    return true;
  }
}
