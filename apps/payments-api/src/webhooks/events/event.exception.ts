import { PayhookError, type ErrorCode } from '@payhook/contracts';

/** The error codes the event routes (get, list, redeliver, recover) answer: any other code is a type error here. */
export type EventErrorCode = Extract<ErrorCode, 'resource_not_found' | 'parameter_invalid' | 'recover_in_progress'>;

export class EventException extends PayhookError {
  declare readonly code: EventErrorCode;

  constructor(code: EventErrorCode, message: string, param?: string) {
    super(code, message, param);
  }
}
