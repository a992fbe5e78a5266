import { applyDecorators } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiResponse } from '@nestjs/swagger';
import { ERROR_CODES, type ErrorCode } from '@payhook/contracts';
import { errorRef } from './components';

/** Every authenticated merchant route can answer these (DESIGN.md §3). */
const ALWAYS: ErrorCode[] = [
  'authentication_required',
  'api_key_invalid',
  // A live key before the merchant is live (DESIGN.md §8 onboarding).
  'live_mode_locked',
  'rate_limited',
  'service_unavailable',
];

/**
 * One operation of the merchant API in the OpenAPI document: its summary, success response and the
 * error codes it can answer, grouped by status, each in the one error shape.
 */
export function ApiRoute(options: {
  summary: string;
  status: number;
  response?: Record<string, unknown>;
  errors?: ErrorCode[];
}) {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of [...(options.errors ?? []), ...ALWAYS]) {
    const status = ERROR_CODES[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return applyDecorators(
    ApiOperation({ summary: options.summary }),
    ApiBearerAuth('apiKey'),
    ApiResponse({
      status: options.status,
      description: 'OK',
      ...(options.response ? { schema: options.response } : {}),
    }),
    ...[...byStatus].map(([status, codes]) =>
      ApiResponse({ status, description: `error.code: ${codes.join(', ')}`, schema: errorRef }),
    ),
  );
}
