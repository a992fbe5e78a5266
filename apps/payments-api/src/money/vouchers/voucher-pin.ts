import { createHash, createHmac } from 'node:crypto';

/** Culture and book gift certificate PINs are 12 to 20 digits, often printed in dashed groups. */
const PIN_PATTERN = /^[0-9]{12,20}$/;

/** The PIN as stored and compared: digits only. Null when the text cannot be a PIN. */
export function normalizePin(text: string): string | null {
  const pin = text.replace(/[\s-]+/g, '');
  return PIN_PATTERN.test(pin) ? pin : null;
}

/** The PIN's SHA-256. Never stored on its own: a 12-digit PIN falls to 10^12 tries of it. */
export function pinDigest(pin: string): string {
  return createHash('sha256').update(pin).digest('hex');
}

/**
 * What is stored for a PIN: an HMAC under SECRETS_KEY (which is not in the database) of its digest,
 * so a dump alone gives nothing to try PINs against. Keyed over the digest, not the PIN, so rows
 * stored as plain digests could be moved to it without knowing any PIN.
 */
export function keyedPinHash(key: Buffer, digest: string): string {
  return createHmac('sha256', key).update(digest).digest('hex');
}

/** The PINs in what a payer typed (one per line, or separated by commas or semicolons), each once. */
export function splitPins(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[\n\r,;]+/)
        .map((part) => part.trim())
        .filter(Boolean),
    ),
  ];
}
