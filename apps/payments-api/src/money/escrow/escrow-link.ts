import { createHash } from 'node:crypto';
import { pooledRandomBytes } from '@payhook/contracts';

/** 256 random bits in base64url: what a buyer's link carries. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/**
 * The buyer's link token, a bearer secret: whoever holds it may confirm or reject the purchase. Only
 * its SHA-256 digest is stored (256 random bits need no salt or key: nothing smaller than the token
 * itself finds it), and the token goes nowhere but into the buyer's e-mail.
 */
export function newEscrowLinkToken(): { token: string; digest: Buffer } {
  const token = pooledRandomBytes(32).toString('base64url');
  return { token, digest: escrowLinkDigest(token) };
}

export function escrowLinkDigest(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}

/** Whether `text` could be a token at all: anything else is answered 404 without a lookup. */
export function isEscrowLinkToken(text: string): boolean {
  return TOKEN_PATTERN.test(text);
}

/** The buyer's page: beside the payment screens, under the same address. */
export function escrowLinkUrl(payUrlBase: string, token: string): string {
  return `${payUrlBase.replace(/\/+$/, '')}/e/${token}`;
}
