import type { Response } from 'supertest';
import type { PaymentsApiHarness } from './payments-api.harness';

/** What the error shape allows inside `error`; anything else (a stack, an exception name) is a leak. */
const ERROR_FIELDS = ['code', 'message', 'param', 'requestId', 'type'];

/** A stack frame or an exception name shown to a caller. */
const STACK_TRACE = /\n\s*at \S|\bat \S+ \(.*:\d+:\d+\)|\b[A-Z]\w*Error:|\bError:/;

/**
 * The checks a caller makes on an error answer: status, `error.code`, `error.param` (when the
 * test names one), `error.requestId` equal to the `Request-Id` header, and no stack trace.
 */
export function expectApiError(response: Response, expected: { status: number; code: string; param?: string }): void {
  const error = (response.body as { error?: Record<string, unknown> } | undefined)?.error;
  const actual = {
    status: response.status,
    code: error?.code,
    ...('param' in expected ? { param: error?.param } : {}),
  };
  expect(actual).toEqual(expected);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  expect(Object.keys(error ?? {}).filter((field) => !ERROR_FIELDS.includes(field))).toEqual([]);
  expect(error?.type).toEqual(expect.any(String));
  expect(error?.message).toEqual(expect.stringMatching(/\S/));
  expectRequestId(response);
  expect(error?.requestId).toBe(response.headers['request-id']);
  expectNoStackTrace(response);
}

export function expectRequestId(response: Response): void {
  expect(response.headers['request-id']).toEqual(expect.stringMatching(/^\S{8,}$/));
}

export function expectNoStackTrace(response: Response): void {
  expect(response.text).not.toMatch(STACK_TRACE);
}

/** Rows a merchant owns in the tables a create writes; for "nothing changed" checks. */
export async function rowCounts(
  api: PaymentsApiHarness,
  merchantId: string,
): Promise<{ payments: number; idempotencyKeys: number }> {
  const [row] = await api.sql<{ payments: number; idempotency_keys: number }>(
    `SELECT (SELECT count(*)::int FROM payments WHERE merchant_id = $1) AS payments,
            (SELECT count(*)::int FROM idempotency_keys WHERE merchant_id = $1) AS idempotency_keys`,
    [merchantId],
  );
  return { payments: row.payments, idempotencyKeys: row.idempotency_keys };
}

/** A fresh Idempotency-Key. */
export function idemKey(): string {
  return `idem-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}`;
}

/** ISO 8601 UTC with milliseconds and `Z`. */
export const ISO_MILLIS_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
