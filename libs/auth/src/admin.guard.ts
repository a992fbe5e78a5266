import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { PayhookError } from '@payhook/contracts';
import { createHash, timingSafeEqual } from 'node:crypto';
import { parseBearer } from './api-key';
import { ADMIN_TOKEN } from './auth-context';
import { AuthException } from './auth.exception';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Guards /admin/v1 with the operator's bearer token, compared in constant time. */
@Injectable()
export class AdminGuard implements CanActivate {
  private readonly expected: Buffer | null;

  constructor(@Inject(ADMIN_TOKEN) adminToken: string | undefined) {
    this.expected = adminToken ? digest(adminToken) : null;
  }

  canActivate(context: ExecutionContext): boolean {
    if (this.expected === null) {
      throw new PayhookError('resource_not_found', 'The operator API is disabled: ADMIN_TOKEN is not set.');
    }
    const header = context.switchToHttp().getRequest<{ headers: Record<string, unknown> }>().headers.authorization;
    const token = parseBearer(typeof header === 'string' ? header : undefined);
    if (token === null) {
      throw new AuthException(
        'authentication_required',
        'Send the operator token as "Authorization: Bearer <ADMIN_TOKEN>".',
      );
    }
    if (!timingSafeEqual(digest(token), this.expected)) {
      throw new AuthException('api_key_invalid', 'The operator token is wrong.');
    }
    return true;
  }
}
