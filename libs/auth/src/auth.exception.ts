import { PayhookError, type ErrorCode } from '@payhook/contracts';

/** The error codes the guards answer before a handler runs: any other code is a type error here. */
export type AuthErrorCode = Extract<
  ErrorCode,
  'authentication_required' | 'api_key_invalid' | 'test_mode_only' | 'live_mode_locked' | 'rate_limited'
>;

export class AuthException extends PayhookError {
  declare readonly code: AuthErrorCode;

  constructor(
    code: AuthErrorCode,
    message: string,
    param?: string,
    /** Extra response headers, such as Retry-After on 429. */
    headers?: Readonly<Record<string, string>>,
  ) {
    super(code, message, param, headers);
  }
}
