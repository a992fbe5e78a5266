import { PayhookError, type ErrorCode } from '@payhook/contracts';

/** The error codes the escrow routes answer: any other code is a type error here. */
export type EscrowErrorCode = Extract<
  ErrorCode,
  'resource_not_found' | 'payment_state_conflict' | 'escrow_state_conflict'
>;

export class EscrowException extends PayhookError {
  declare readonly code: EscrowErrorCode;

  constructor(code: EscrowErrorCode, message: string, param?: string) {
    super(code, message, param);
  }
}
