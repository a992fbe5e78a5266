import { ValidateBy } from 'class-validator';
import { parseDuration } from './duration';
import { postgresUrlProblem } from './postgres-url';

/** A retention: a duration such as 24h or 30d, from one minute (shorter would purge what is still in use). */
export const IsDurationFromOneMinute = () =>
  ValidateBy({
    name: 'isDurationFromOneMinute',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && (parseDuration(value) ?? 0) >= 60_000,
      defaultMessage: () => 'must be a duration from 1m, such as 24h or 30d',
    },
  });

/** A postgres:// URL of one host or several (libpq's host list), usable as `variable`. */
export const IsPostgresUrl = (variable: 'DATABASE_URL' | 'DATABASE_READ_URL') =>
  ValidateBy({
    name: 'isPostgresUrl',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && postgresUrlProblem(value, variable) === null,
      defaultMessage: (args) =>
        (typeof args?.value === 'string' && postgresUrlProblem(args.value, variable)) || 'must be a postgres:// URL',
    },
  });
