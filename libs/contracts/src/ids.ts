import { randomBytes } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** 24 base62 characters ≈ 143 bits: far beyond guessing, short enough to read. */
const ID_RANDOM_LENGTH = 24;

export const ID_PREFIXES = {
  payment: 'pay_',
  event: 'evt_',
  merchant: 'mch_',
  apiKey: 'key_',
  attempt: 'att_',
  integrationTest: 'itr_',
  deposit: 'dep_',
  reviewCase: 'rev_',
  voucher: 'vch_',
  recovery: 'rcv_',
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

/** Uniform random base62 string; rejection sampling keeps every character equally likely. */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248) out += BASE62[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

export function newId(kind: IdKind): string {
  return ID_PREFIXES[kind] + randomBase62(ID_RANDOM_LENGTH);
}

const ID_PATTERN = /^[a-z]{3}_[0-9A-Za-z]{20,64}$/;

/** True when `value` has the shape of an id of this kind; a cheap guard before a lookup. */
export function isIdOf(kind: IdKind, value: string): boolean {
  return value.startsWith(ID_PREFIXES[kind]) && ID_PATTERN.test(value);
}
