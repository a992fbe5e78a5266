import { PayhookError, type ErrorCode } from '@payhook/contracts';

/** The error codes the payment routes (create, get, list, cancel, the test helpers, confirm-receipt) answer: any other code is a type error here. */
export type PaymentErrorCode = Extract<
  ErrorCode,
  | 'resource_not_found'
  | 'parameter_invalid'
  | 'payment_state_conflict'
  | 'order_already_active'
  | 'idempotency_key_reused'
>;

export class PaymentException extends PayhookError {
  declare readonly code: PaymentErrorCode;

  constructor(code: PaymentErrorCode, message: string, param?: string) {
    super(code, message, param);
  }
}
