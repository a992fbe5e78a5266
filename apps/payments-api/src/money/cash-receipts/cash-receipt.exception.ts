import { PayhookError, type ErrorCode } from '@payhook/contracts';

/** The error codes the cash receipt routes (merchant and operator) answer: any other code is a type error here. */
export type CashReceiptErrorCode = Extract<
  ErrorCode,
  | 'resource_not_found'
  | 'parameter_invalid'
  | 'payment_state_conflict'
  | 'cash_receipt_exists'
  | 'cash_receipt_state_conflict'
>;

export class CashReceiptException extends PayhookError {
  declare readonly code: CashReceiptErrorCode;

  constructor(code: CashReceiptErrorCode, message: string, param?: string) {
    super(code, message, param);
  }
}
