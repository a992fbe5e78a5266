import { applyDecorators } from '@nestjs/common';
import { STATUS_CODES } from 'node:http';
import { ApiBearerAuth, ApiOperation, ApiResponse } from '@nestjs/swagger';
import { ERROR_CODES, type ErrorCode } from '@payhook/contracts';
import { errorRef } from './error.schema';

/** Every authenticated merchant route can answer these (docs/merchant-guide.md, Errors). */
const MERCHANT_ALWAYS: ErrorCode[] = [
  'authentication_required',
  'api_key_invalid',
  // A live key before the merchant is live (docs/merchant-guide.md, Going live).
  'live_mode_locked',
  'rate_limited',
  'service_unavailable',
];

/** Every operator route can answer these; 404 when ADMIN_TOKEN is not set (the operator API is off). */
const OPERATOR_ALWAYS: ErrorCode[] = [
  'authentication_required',
  'api_key_invalid',
  'resource_not_found',
  'rate_limited',
  'service_unavailable',
];

/** What any route with a JSON body can answer before its handler runs. */
export const BODY_ERRORS: ErrorCode[] = [
  'parameter_invalid',
  'parameter_missing',
  'parameter_unknown',
  'body_invalid_json',
  'payload_too_large',
  'unsupported_media_type',
];

interface RouteOptions {
  summary: string;
  status: number;
  response?: Record<string, unknown>;
  /** The success body's media type when it is not JSON (the CSV export). */
  mediaType?: string;
  /** A second success answer: a replay answers 200 with `Idempotent-Replayed: true`. */
  replay?: { status: number; description: string };
  errors?: ErrorCode[];
}

/**
 * One operation of the merchant API in the OpenAPI document: its summary, success response and the
 * error codes it can answer, grouped by status, each in the one error shape.
 */
export function ApiRoute(options: RouteOptions) {
  return applyDecorators(ApiBearerAuth('apiKey'), ...routeDecorators(options, MERCHANT_ALWAYS));
}

/** One operation of the operator API; the admin token is required document-wide. */
export function AdminRoute(options: RouteOptions) {
  return applyDecorators(...routeDecorators(options, OPERATOR_ALWAYS));
}

function routeDecorators(options: RouteOptions, always: ErrorCode[]) {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of new Set([...(options.errors ?? []), ...always])) {
    const status = ERROR_CODES[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const content = (schema: Record<string, unknown>) => ({ [options.mediaType ?? 'application/json']: { schema } });
  return [
    ApiOperation({ summary: options.summary }),
    ApiResponse({
      status: options.status,
      description: STATUS_CODES[options.status] ?? 'Success',
      ...(options.response ? { content: content(options.response) } : {}),
    }),
    ...(options.replay
      ? [
          ApiResponse({
            status: options.replay.status,
            description: options.replay.description,
            ...(options.response ? { content: content(options.response) } : {}),
          }),
        ]
      : []),
    ...[...byStatus].map(([status, codes]) =>
      ApiResponse({ status, description: `error.code: ${codes.join(', ')}`, schema: errorRef }),
    ),
  ];
}
