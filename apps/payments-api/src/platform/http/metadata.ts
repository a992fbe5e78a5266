import { METADATA_KEY_MAX_CHARS, METADATA_MAX_KEYS, METADATA_VALUE_MAX_CHARS } from '@payhook/contracts';
import { applyDecorators } from '@nestjs/common';
import { ValidateBy, type ValidationOptions } from 'class-validator';
import { KeptAsParsed } from './kept-as-parsed';

/**
 * A merchant's own keys on a payment or a refund, checked here once for every body that
 * takes them: an object of at most 20 keys, each 1 to 40 of `[A-Za-z0-9_.-]`, with string values
 * of 0 to 500 printable characters (any printable Unicode, Korean included).
 */
export const METADATA_KEY_PATTERN = new RegExp(`^[A-Za-z0-9_.-]{1,${METADATA_KEY_MAX_CHARS}}$`);
/** The rules in words, for messages and the OpenAPI document. */
export const METADATA_RULE =
  `an object of at most ${METADATA_MAX_KEYS} keys, each 1 to ${METADATA_KEY_MAX_CHARS} of A-Z a-z 0-9 _ . -, ` +
  `with string values of 0 to ${METADATA_VALUE_MAX_CHARS} printable characters`;

/** The constraint's name: RequestValidationPipe's violations name the key at fault under it. */
export const IS_METADATA = 'isMetadata';

/** What is wrong with a metadata value: `key` names the member at fault when there is one to name. */
export interface MetadataFault {
  key?: string;
  reason: string;
}

/** No control, format, unassigned or surrogate character, no line or paragraph separator (Postgres's jsonb refuses some of them too). */
const PRINTABLE = /^[^\p{C}\p{Zl}\p{Zp}]*$/u;

/**
 * The first thing wrong with `value` as metadata, or null when it is metadata. A key that breaks
 * the rules is quoted in the reason (cut short), not named as the member: it may be anything.
 */
export function metadataFault(value: unknown): MetadataFault | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { reason: `must be ${METADATA_RULE}` };
  }
  const keys = Object.keys(value);
  if (keys.length > METADATA_MAX_KEYS) {
    return { reason: `must have at most ${METADATA_MAX_KEYS} keys (it has ${keys.length})` };
  }
  for (const key of keys) {
    if (!METADATA_KEY_PATTERN.test(key)) {
      return {
        reason: `keys must be 1 to ${METADATA_KEY_MAX_CHARS} of A-Z a-z 0-9 _ . - (${quoted(key)} is not)`,
      };
    }
    const member = (value as Record<string, unknown>)[key];
    if (typeof member !== 'string') return { key, reason: 'must be a string' };
    if (!PRINTABLE.test(member) || [...member].length > METADATA_VALUE_MAX_CHARS) {
      return { key, reason: `must be 0 to ${METADATA_VALUE_MAX_CHARS} printable characters` };
    }
  }
  return null;
}

/** A key as JSON, at most a few characters past the limit: enough to find it, never the whole of a huge one. */
function quoted(key: string): string {
  const shown = [...key].slice(0, METADATA_KEY_MAX_CHARS + 1).join('');
  return JSON.stringify(shown.length < key.length ? `${shown}…` : shown);
}

/**
 * The DTO decorator: a violation is reported as `metadata`, or `metadata.<key>` for a bad value. The
 * value is validated and stored as parsed (its keys are the merchant's: `constructor` and `__proto__`
 * are keys like any other).
 */
export const IsMetadata = (options?: ValidationOptions) =>
  applyDecorators(
    KeptAsParsed(),
    ValidateBy(
      {
        name: IS_METADATA,
        validator: {
          validate: (value: unknown) => metadataFault(value) === null,
          defaultMessage: (args) => metadataFault(args?.value)?.reason ?? `must be ${METADATA_RULE}`,
        },
      },
      options,
    ),
  );
