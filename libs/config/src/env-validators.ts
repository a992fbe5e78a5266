import { ValidateBy } from 'class-validator';
import { parseDuration } from './duration';

/** A retention: a duration such as 24h or 30d, from one minute (shorter would purge what is still in use). */
export const IsDurationFromOneMinute = () =>
  ValidateBy({
    name: 'isDurationFromOneMinute',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && (parseDuration(value) ?? 0) >= 60_000,
      defaultMessage: () => 'must be a duration from 1m, such as 24h or 30d',
    },
  });
