import { PinoLogger } from 'nestjs-pino';

/**
 * The correlation fields of a log line (issue 16): an operator follows one payment from the API
 * request through the outbox and the queue to each delivery attempt by these names.
 */
export interface LogFields {
  requestId?: string;
  merchantId?: string;
  livemode?: boolean;
  paymentId?: string;
  eventId?: string;
  attempt?: number;
  endpointHost?: string;
  endpointId?: string;
}

/**
 * nestjs-pino keeps a logger per request and per queue message (AsyncLocalStorage); this handle
 * reaches the current one without injection, so a guard or a repository can add what it learns.
 * Made on first use: the first PinoLogger of a process builds its root logger, and that must be
 * the app's LoggerModule, with the app's configuration.
 */
let handle: PinoLogger | undefined;
const current = (): PinoLogger => (handle ??= new PinoLogger({}));

/** Adds fields to every later line of the current request or message; outside one, nothing to add to. */
export function addLogFields(fields: LogFields): void {
  try {
    current().assign(fields);
  } catch {
    // Out of a request or message (a background job): its own lines say what they are about.
  }
}

/** The Request-Id of the request (or the one a queue message carries) being handled now, if any. */
export function currentRequestId(): string | undefined {
  try {
    const requestId: unknown = current().logger.bindings().requestId;
    return typeof requestId === 'string' ? requestId : undefined;
  } catch {
    // On the money path (the outbox row): logging must never fail a payment.
    return undefined;
  }
}

/** Runs `work` with its own log context: lines inside carry `fields` (a delivery from a lane, say). */
export function withLogFields<T>(fields: LogFields, work: () => T): T {
  return current().runInContext(work, { bindings: fields });
}
