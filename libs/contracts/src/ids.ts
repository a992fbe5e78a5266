import { randomBytes, randomFillSync } from 'node:crypto';

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
  refund: 'rfd_',
  cashReceipt: 'crc_',
  webhookEndpoint: 'we_',
  member: 'mem_',
  invite: 'inv_',
  auditEntry: 'aud_',
  /** A `payhook listen` session: an ephemeral endpoint of a test mode. */
  listenSession: 'lsn_',
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

/**
 * Random bytes drawn from the OS 4 KiB at a time, as Node does for randomUUID: one call into
 * OpenSSL per ~40 creates instead of three per create (7% of the API's CPU under the create load).
 * Each caller gets a copy, and the bytes handed out are wiped from the pool.
 */
const POOL = Buffer.alloc(4096);
let poolOffset = POOL.length;

export function pooledRandomBytes(size: number): Buffer {
  if (size > POOL.length) return randomBytes(size);
  if (poolOffset + size > POOL.length) {
    randomFillSync(POOL);
    poolOffset = 0;
  }
  const bytes = Buffer.from(POOL.subarray(poolOffset, poolOffset + size));
  POOL.fill(0, poolOffset, poolOffset + size);
  poolOffset += size;
  return bytes;
}

/** Uniform random base62 string; rejection sampling keeps every character equally likely. */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of pooledRandomBytes(length * 2)) {
      if (byte < 248) out += BASE62[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

export function newId(kind: IdKind): string {
  return ID_PREFIXES[kind] + randomBase62(ID_RANDOM_LENGTH);
}

const ID_PATTERN = /^[a-z]{2,3}_[0-9A-Za-z]{20,64}$/;

/** True when `value` has the shape of an id of this kind; a cheap guard before a lookup. */
export function isIdOf(kind: IdKind, value: string): boolean {
  return value.startsWith(ID_PREFIXES[kind]) && ID_PATTERN.test(value);
}
