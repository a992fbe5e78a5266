import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { apiKeyMode, parseBearer } from './api-key';
import { ApiKeyAuthenticator } from './api-key-authenticator';
import type { AuthContext } from './auth-context';
import { AuthException } from './auth.exception';
import { raiseKeptBodyError } from './kept-body-error';
import { TEST_MODE_ONLY } from './test-mode-only.decorator';
import { addLogFields } from '@payhook/observability';

export interface AuthenticatedRequest {
  headers: Record<string, string | string[] | undefined>;
  auth?: AuthContext;
}

@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly authenticator: ApiKeyAuthenticator,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const header = request.headers.authorization;
    const token = parseBearer(typeof header === 'string' ? header : undefined);
    if (token === null) {
      throw new AuthException(
        'authentication_required',
        'Send your API key as "Authorization: Bearer svc_test_..." or "Bearer svc_live_...".',
      );
    }
    const auth = apiKeyMode(token) === null ? null : await this.authenticator.resolve(token);
    if (auth === null) throw new AuthException('api_key_invalid', 'The API key is unknown or has been revoked.');
    addLogFields({ merchantId: auth.merchantId, livemode: auth.livemode });

    const testModeOnly = this.reflector.getAllAndOverride<boolean>(TEST_MODE_ONLY, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (testModeOnly && auth.livemode) {
      throw new AuthException('test_mode_only', 'This endpoint is available with test keys only.');
    }
    if (auth.livemode && auth.merchantStatus !== 'live') {
      throw new AuthException(
        'live_mode_locked',
        'Live payments open after the merchant passes the integration test in test mode.',
      );
    }
    const waitSeconds = await this.authenticator.takeToken(auth.keyId);
    if (waitSeconds > 0) {
      throw new AuthException('rate_limited', 'Too many requests with this API key; slow down.', undefined, {
        'Retry-After': String(waitSeconds),
      });
    }
    request.auth = auth;
    raiseKeptBodyError(request);
    return true;
  }
}
