import { PayhookError, type ErrorCode } from '@payhook/contracts';

/** The error codes the refund routes (merchant and operator) answer: any other code is a type error here. */
export type RefundErrorCode = Extract<
  ErrorCode,
  | 'resource_not_found'
  | 'parameter_invalid'
  | 'parameter_missing'
  | 'payment_state_conflict'
  | 'refund_amount_exceeded'
  | 'refund_state_conflict'
  | 'idempotency_key_reused'
>;

export class RefundException extends PayhookError {
  declare readonly code: RefundErrorCode;

  constructor(code: RefundErrorCode, message: string, param?: string) {
    super(code, message, param);
  }
}
