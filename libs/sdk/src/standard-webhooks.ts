import { createHmac, timingSafeEqual } from 'node:crypto';

import { checkedTiming, type SignatureCheckOptions, type WebhookSignatureErrorReason } from './webhook-signature';

/**
 * The receiving half of libs/signing's Standard Webhooks headers (standard-webhooks.ts there), copied like
 * webhook-signature.ts: contract-copies.spec.ts verifies here what libs/signing's deliveryHeaders builds.
 */

/** The three Standard Webhooks headers of a request, as the HTTP layer hands them over. */
export interface StandardWebhookHeaders {
  id: string | string[] | undefined;
  timestamp: string | string[] | undefined;
  signature: string | string[] | undefined;
}

// Unix seconds without leading zeros, so the signed text and the number cannot differ.
const TIMESTAMP_PATTERN = /^(0|[1-9]\d{0,14})$/;
// One entry of the space-separated list: the version, a comma, the base64 of a 32-byte HMAC-SHA256.
const V1_ENTRY_PATTERN = /^v1,([A-Za-z0-9+/]{43}=)$/;
const SECRET_PREFIX = 'whsec_';

/**
 * Why the Standard Webhooks signature is refused, or undefined when one `v1` entry matches and the timestamp
 * is fresh. Entries of other versions are skipped, as the specification asks. The same order as
 * signatureProblem: format, then HMAC, then timestamp, so only a genuine delivery can be called stale.
 */
export function standardSignatureProblem(
  rawBody: Buffer | string,
  headers: StandardWebhookHeaders,
  secret: string,
  options: SignatureCheckOptions = {},
): WebhookSignatureErrorReason | undefined {
  const { toleranceSeconds, nowSeconds } = checkedTiming(options);
  const { id, timestamp, signature } = headers;
  if ([id, timestamp, signature].some((value) => value === undefined || value === '')) return 'header_missing';
  // An array: the header came twice.
  if (typeof id !== 'string' || typeof timestamp !== 'string' || typeof signature !== 'string') {
    return 'header_malformed';
  }
  const candidates = signature.split(' ').flatMap((entry) => V1_ENTRY_PATTERN.exec(entry)?.[1] ?? []);
  if (!TIMESTAMP_PATTERN.test(timestamp) || candidates.length === 0) return 'header_malformed';

  // The key is the base64 decoding of the secret after `whsec_` (not the whole string, as for Service-Signature).
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
  const hmac = createHmac('sha256', key).update(`${id}.${timestamp}.`, 'utf8');
  // A Buffer is hashed byte for byte: decoding it as a string could alter invalid UTF-8.
  if (typeof rawBody === 'string') hmac.update(rawBody, 'utf8');
  else hmac.update(rawBody);
  const expected = Buffer.from(hmac.digest('base64'));
  // Both are 44 characters: the pattern fixed each candidate's length.
  if (!candidates.some((candidate) => timingSafeEqual(expected, Buffer.from(candidate)))) return 'signature_mismatch';

  if (Math.abs(nowSeconds - Number(timestamp)) > toleranceSeconds) return 'timestamp_out_of_tolerance';
  return undefined;
}
