import { PayhookError, type ErrorCode } from '@payhook/contracts';

/** The error codes the webhook endpoint routes answer: any other code is a type error here. */
export type WebhookEndpointErrorCode = Extract<
  ErrorCode,
  'resource_not_found' | 'parameter_invalid' | 'endpoint_limit_reached'
>;

export class WebhookEndpointException extends PayhookError {
  declare readonly code: WebhookEndpointErrorCode;

  constructor(code: WebhookEndpointErrorCode, message: string, param?: string) {
    super(code, message, param);
  }
}
