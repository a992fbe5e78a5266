import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { PayhookError } from '@payhook/contracts';
import { createHash, timingSafeEqual } from 'node:crypto';
import { parseBearer } from './api-key';
import { ADMIN_TOKEN } from './auth-context';
import { AUTH_FAILURE_THROTTLE, throttledError, type AuthFailureThrottle } from './auth-failure-throttle';
import { AuthException } from './auth.exception';
import { raiseKeptBodyError } from './kept-body-error';

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * Guards /admin/v1 with the operator's bearer token, compared in constant time. Wrong tokens are
 * counted per client address: after 20 within 5 minutes that address gets 429 until the window passes.
 */
@Injectable()
export class AdminGuard implements CanActivate {
  private readonly expected: Buffer | null;

  constructor(
    @Inject(ADMIN_TOKEN) adminToken: string | undefined,
    @Inject(AUTH_FAILURE_THROTTLE) private readonly failures: AuthFailureThrottle,
  ) {
    this.expected = adminToken ? digest(adminToken) : null;
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.expected === null) {
      throw new PayhookError('resource_not_found', 'The operator API is disabled: ADMIN_TOKEN is not set.');
    }
    const request = context.switchToHttp().getRequest<{ headers: Record<string, unknown>; ip?: string }>();
    const header = request.headers.authorization;
    const token = parseBearer(typeof header === 'string' ? header : undefined);
    if (token === null) {
      throw new AuthException(
        'authentication_required',
        'Send the operator token as "Authorization: Bearer <ADMIN_TOKEN>".',
      );
    }
    const expected = this.expected;
    // A digest comparison takes no time: it runs under the address's lock, so an operator's tool
    // sending many requests at once is never throttled by its own requests in flight.
    const attempt = await this.failures.check('admin', request.ip ?? 'unknown', () =>
      timingSafeEqual(digest(token), expected),
    );
    if (attempt.kind === 'throttled') throw throttledError(attempt.until, 'operator tokens');
    if (attempt.kind === 'wrong') throw new AuthException('api_key_invalid', 'The operator token is wrong.');
    raiseKeptBodyError(request);
    return true;
  }
}
