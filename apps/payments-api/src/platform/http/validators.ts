import { applyDecorators } from '@nestjs/common';
import { isForbiddenAddress } from '@payhook/webhook-http';
import { IsInt, Max, Min, ValidateBy, type ValidationOptions } from 'class-validator';
import { isIP } from 'node:net';

export const MAX_URL_LENGTH = 2048;

/** A whole number of won from `min` to `max`: a JSON number, never a string, a fraction or a negative. */
export const IsWholeWon = (min: number, max: number) => {
  const message = `must be a whole number of won from ${min} to ${max}`;
  return applyDecorators(IsInt({ message }), Min(min, { message }), Max(max, { message }));
};

/**
 * An absolute http(s) URL with a host, at most 2,048 characters. The `//` is required in the text
 * itself: WHATWG parsing would repair `https:shop.example`, but a browser following a redirect to
 * the stored string would not.
 */
export function isHttpUrl(value: unknown): value is string {
  if (typeof value !== 'string' || value.length > MAX_URL_LENGTH || !/^https?:\/\/[^/\\]/i.test(value)) return false;
  // Control characters would be repaired by the parser but stored raw (and Postgres refuses NUL);
  // white space and line separators are how text poses as something else where the URL is shown.
  if (/[\p{C}\p{Z}\s]/u.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

export const IsHttpUrl = (options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'isHttpUrl',
      validator: {
        validate: isHttpUrl,
        defaultMessage: () =>
          'must be an absolute http(s) URL of at most 2048 characters, without white space (percent-encode it)',
      },
    },
    options,
  );

/**
 * 1..max characters (code points) on one line: none of them a control, format, unassigned, line or
 * paragraph separator character.
 */
export const IsPrintableText = (max: number, options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'isPrintableText',
      validator: {
        validate: (value: unknown) =>
          typeof value === 'string' && /^[^\p{C}\p{Zl}\p{Zp}]+$/u.test(value) && [...value].length <= max,
        defaultMessage: () => `must be 1 to ${max} printable characters`,
      },
    },
    options,
  );

export function isHttpsUrl(value: string): boolean {
  return /^https:\/\//i.test(value);
}

/**
 * A URL hostname that is itself a loopback, private, link-local or reserved address (an IP literal,
 * `[::1]` included) or a `localhost` name: known to be private without asking DNS.
 */
export function isPrivateHost(hostname: string): boolean {
  const host = hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  const family = isIP(host);
  return family !== 0 && isForbiddenAddress(host, family as 4 | 6);
}

const INSTANT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/;

/** The time of an ISO 8601 date-time with a zone naming a real calendar date and time, or null (2026-02-30 and 24:00 are refused, not rolled over). */
function exactInstantTime(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const [, year, month, day, hour, minute, second = '0'] = INSTANT.exec(value) ?? [];
  if (year === undefined) return null;
  const wall = new Date(Date.UTC(+year, +month - 1, +day, +hour, +minute, +second));
  const exact =
    wall.getUTCFullYear() === +year &&
    wall.getUTCMonth() === +month - 1 &&
    wall.getUTCDate() === +day &&
    wall.getUTCHours() === +hour &&
    wall.getUTCMinutes() === +minute &&
    wall.getUTCSeconds() === +second;
  const time = new Date(value).getTime();
  return exact && !Number.isNaN(time) ? time : null;
}

/** A real instant from 2000 to at most a day ahead of our clock: when something happened outside payhook. */
export function isRecentInstant(value: unknown): value is string {
  const time = exactInstantTime(value);
  return time !== null && new Date(time).getUTCFullYear() >= 2000 && time <= Date.now() + 86_400_000;
}

/** A real instant within the last `days` days and not in the future. */
export function isInstantInLastDays(value: unknown, days: number): value is string {
  const time = exactInstantTime(value);
  return time !== null && time >= Date.now() - days * 86_400_000 && time <= Date.now();
}

export const IsInstantInLastDays = (days: number, options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'isInstantInLastDays',
      validator: {
        validate: (value: unknown) => isInstantInLastDays(value, days),
        defaultMessage: () =>
          `must be an ISO 8601 date-time with a zone, within the last ${days} days and not in the future`,
      },
    },
    options,
  );

export const IsRecentInstant = (options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'isRecentInstant',
      validator: {
        validate: isRecentInstant,
        defaultMessage: () => 'must be a real ISO 8601 date-time with a zone, from 2000 up to a day from now',
      },
    },
    options,
  );

/** An IANA time zone name that this runtime knows, such as Asia/Seoul (the operator API and the console). */
export function isIanaTimeZone(value: unknown): value is string {
  if (typeof value !== 'string' || !/^[A-Za-z_]+(\/[A-Za-z0-9_+-]+)*$/.test(value)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}
