import { PayhookError, type ErrorCode } from '@payhook/contracts';

/** A team change that cannot be made: shown on the console page that asked for it. */
export class TeamException extends PayhookError {
  constructor(
    code: Extract<ErrorCode, 'parameter_invalid' | 'resource_not_found' | 'merchant_state_conflict' | 'rate_limited'>,
    message: string,
  ) {
    super(code, message);
  }
}
