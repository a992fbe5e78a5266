import { currentRequestId } from './log-fields';
import { traceHeaders } from './tracing';

/** The header that carries the causing request's id from the outbox row to the dispatcher. */
export const REQUEST_ID_HEADER = 'payhook-request-id';

/** Headers a delivery request carries from the request that caused it (outbox row → message). */
export type MessageHeaders = Record<string, string>;

/** What the current request passes on to the messages it causes: its id and its trace context. */
export function outgoingMessageHeaders(): MessageHeaders {
  const requestId = currentRequestId();
  return { ...(requestId ? { [REQUEST_ID_HEADER]: requestId } : {}), ...traceHeaders() };
}

/** Only string values: headers come from the wire and a database column. */
export function messageHeadersFrom(raw: unknown): MessageHeaders {
  if (typeof raw !== 'object' || raw === null) return {};
  return Object.fromEntries(
    Object.entries(raw).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
}

/** The id of the request that caused the message (none for a background job's). */
export function causingRequestId(headers: MessageHeaders): string | undefined {
  return headers[REQUEST_ID_HEADER];
}
