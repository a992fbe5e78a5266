import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { formField, readCookie, sameToken } from '../html/cookies';
import { ConsoleAuthService } from './console-auth.service';
import { SESSION_COOKIE, type ConsoleSession } from './console-session';
import { ConsoleException } from './console.exception';

export type ConsoleRequest = Request & { consoleSession?: ConsoleSession };

/**
 * Every console page but the login form: a live session, and on a POST the session's CSRF token in
 * the form. Both are checked before the handler runs, so a refused POST changes nothing.
 */
@Injectable()
export class ConsoleSessionGuard implements CanActivate {
  constructor(private readonly auth: ConsoleAuthService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<ConsoleRequest>();
    const token = readCookie(request, SESSION_COOKIE);
    const session = token ? await this.auth.session(token) : null;
    if (!session) throw new ConsoleException('login_required', 'Sign in to use the console.');
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      if (!sameToken(session.csrfToken, formField(request.body, 'csrf'))) {
        throw new ConsoleException('csrf_invalid', 'This form has expired or did not come from the console.');
      }
    }
    request.consoleSession = session;
    return true;
  }
}
