import { PayhookError, type ErrorCode } from '@payhook/contracts';

/** The error codes the operator's merchant and API key routes answer: any other code is a type error here. */
export type MerchantErrorCode = Extract<
  ErrorCode,
  'resource_not_found' | 'parameter_invalid' | 'merchant_state_conflict' | 'live_mode_locked'
>;

export class MerchantException extends PayhookError {
  declare readonly code: MerchantErrorCode;

  constructor(code: MerchantErrorCode, message: string, param?: string) {
    super(code, message, param);
  }
}
