import { PayhookError, type ErrorCode } from '@payhook/contracts';

/** The error codes the listen-session routes answer: any other code is a type error here. */
export type ListenSessionErrorCode = Extract<
  ErrorCode,
  | 'resource_not_found'
  | 'parameter_missing'
  | 'parameter_invalid'
  | 'listen_session_limit_reached'
  | 'listen_session_ended'
>;

export class ListenSessionException extends PayhookError {
  declare readonly code: ListenSessionErrorCode;

  constructor(code: ListenSessionErrorCode, message: string, param?: string) {
    super(code, message, param);
  }
}
