/** Every error code with its HTTP status and error type. */
export const ERROR_CODES = {
  parameter_invalid: { status: 400, type: 'invalid_request_error' },
  parameter_missing: { status: 400, type: 'invalid_request_error' },
  parameter_unknown: { status: 400, type: 'invalid_request_error' },
  body_invalid_json: { status: 400, type: 'invalid_request_error' },
  idempotency_key_missing: { status: 400, type: 'invalid_request_error' },
  idempotency_key_invalid: { status: 400, type: 'invalid_request_error' },
  authentication_required: { status: 401, type: 'authentication_error' },
  api_key_invalid: { status: 401, type: 'authentication_error' },
  live_mode_locked: { status: 403, type: 'permission_error' },
  test_mode_only: { status: 403, type: 'permission_error' },
  resource_not_found: { status: 404, type: 'invalid_request_error' },
  idempotency_key_in_use: { status: 409, type: 'idempotency_error' },
  payment_state_conflict: { status: 409, type: 'invalid_request_error' },
  order_already_active: { status: 409, type: 'invalid_request_error' },
  merchant_state_conflict: { status: 409, type: 'invalid_request_error' },
  review_state_conflict: { status: 409, type: 'invalid_request_error' },
  recover_in_progress: { status: 409, type: 'invalid_request_error' },
  refund_amount_exceeded: { status: 409, type: 'invalid_request_error' },
  refund_state_conflict: { status: 409, type: 'invalid_request_error' },
  cash_receipt_exists: { status: 409, type: 'invalid_request_error' },
  cash_receipt_state_conflict: { status: 409, type: 'invalid_request_error' },
  escrow_state_conflict: { status: 409, type: 'invalid_request_error' },
  endpoint_limit_reached: { status: 409, type: 'invalid_request_error' },
  listen_session_limit_reached: { status: 409, type: 'invalid_request_error' },
  listen_session_ended: { status: 409, type: 'invalid_request_error' },
  payload_too_large: { status: 413, type: 'invalid_request_error' },
  unsupported_media_type: { status: 415, type: 'invalid_request_error' },
  idempotency_key_reused: { status: 422, type: 'idempotency_error' },
  rate_limited: { status: 429, type: 'rate_limit_error' },
  internal_error: { status: 500, type: 'api_error' },
  service_unavailable: { status: 503, type: 'api_error' },
} as const satisfies Record<string, { status: number; type: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** The body every error response has. */
export interface ErrorBody {
  error: {
    type: string;
    code: ErrorCode;
    message: string;
    param?: string;
    requestId: string;
  };
}

/**
 * Base of every feature exception. Services throw a subclass with a code;
 * the single exception filter turns the code into status and body.
 */
export class PayhookError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly param?: string,
    /** Extra response headers, such as Retry-After on 429. */
    readonly headers?: Readonly<Record<string, string>>,
  ) {
    super(message);
    this.name = new.target.name;
  }
}
