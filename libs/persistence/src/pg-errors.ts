/** The Postgres error fields we branch on. */
export interface PgError {
  code?: string;
  constraint?: string;
}

export const UNIQUE_VIOLATION = '23505';

/** Raised by abort_statement(reason): a statement undid its own writes (migration StatementsAlone1766000000000). */
export const STATEMENT_ABORTED = 'PH001';

/**
 * SQLSTATE classes a single row of a batch statement can cause: 21 (cardinality), 22 (data), 23
 * (integrity), 40 (deadlock, serialization). A batch that fails with one is worth splitting.
 */
export function isRowError(error: unknown): boolean {
  const code = (error as PgError | null)?.code;
  return typeof code === 'string' && ['21', '22', '23', '40'].includes(code.slice(0, 2));
}

/** 25P02: a statement sent after another of its transaction failed; the other's error says why. */
export function isTransactionAborted(error: unknown): boolean {
  return (error as PgError | null)?.code === '25P02';
}

export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const pg = error as PgError;
  return pg?.code === UNIQUE_VIOLATION && (constraint === undefined || pg.constraint === constraint);
}

/** Network errors of a connection that Postgres did not answer or dropped. */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);
/**
 * SQLSTATEs of a server that is going down, starting up or out of connections, or no longer takes
 * writes (25006: a primary turned standby, a failover under way), and of a statement that only
 * needs running again: a deadlock victim, or a query a streaming replica cancelled to keep
 * replaying the primary (40001, "conflict with recovery", on DATABASE_READ_URL).
 */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300', '40001', '40P01', '25006']);
/** node-postgres says these in words only. */
const UNREACHABLE_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error',
  'Connection terminated due to connection timeout',
];

/**
 * True when the error means Postgres could not be reached (refused, dropped, shutting down, starting
 * up): the request may succeed later, so it answers 503, never 500. Follows TypeORM's `driverError`
 * and the `errors` of an AggregateError (one per address tried).
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 3) return false;
  const fields = error as { code?: unknown; message?: unknown; driverError?: unknown; errors?: unknown };
  if (typeof fields.code === 'string') {
    // SQLSTATE class 08: connection exception.
    if (UNREACHABLE_CODES.has(fields.code) || UNAVAILABLE_SQLSTATES.has(fields.code) || /^08/.test(fields.code)) {
      return true;
    }
  }
  if (
    typeof fields.message === 'string' &&
    UNREACHABLE_MESSAGES.some((text) => fields.message === text || (fields.message as string).startsWith(text))
  ) {
    return true;
  }
  if (isDatabaseUnavailable(fields.driverError, depth + 1)) return true;
  return Array.isArray(fields.errors) && fields.errors.some((inner) => isDatabaseUnavailable(inner, depth + 1));
}
