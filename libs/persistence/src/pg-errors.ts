/** The Postgres error fields we branch on. */
export interface PgError {
  code?: string;
  constraint?: string;
}

export const UNIQUE_VIOLATION = '23505';

export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const pg = error as PgError;
  return pg?.code === UNIQUE_VIOLATION && (constraint === undefined || pg.constraint === constraint);
}
