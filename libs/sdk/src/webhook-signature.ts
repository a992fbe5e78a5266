import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The receiving half of libs/signing (`verifyWebhookSignature`), copied so the published SDK needs nothing
 * of the monorepo (see payhook-contract.ts). contract-copies.spec.ts feeds both the same genuine, tampered,
 * stale and malformed deliveries and requires the same verdict from each, so the two cannot drift apart.
 */

/** Accepted clock distance between the signature's `t` and now, in either direction (docs/merchant-guide.md, Verifying a delivery, step 4). */
export const DEFAULT_TOLERANCE_SECONDS = 300;

export type WebhookSignatureErrorReason =
  'header_missing' | 'header_malformed' | 'signature_mismatch' | 'timestamp_out_of_tolerance';

/** Fixed per reason, so nothing derived from the secret or the expected signature leaks out. */
export const SIGNATURE_REASON_MESSAGES: Record<WebhookSignatureErrorReason, string> = {
  header_missing: 'Signature header is missing',
  header_malformed: 'Signature header is malformed',
  signature_mismatch: 'Signature does not match',
  timestamp_out_of_tolerance: 'Signature timestamp is outside the tolerance window',
};

/** Exactly `t=<digits>,v1=<64 lowercase hex>`: no leniency (the integration test's review sends near-misses). */
const SIGNATURE_HEADER_PATTERN = /^t=(\d{1,15}),v1=([0-9a-f]{64})$/;

export interface SignatureCheckOptions {
  toleranceSeconds?: number;
  nowSeconds?: number;
}

/**
 * Why the delivery's signature is refused, or undefined when it is authentic and fresh. Format first, then
 * the HMAC, then the timestamp: `t` is attacker-controlled until the HMAC covers it, so only a genuine
 * header can earn `timestamp_out_of_tolerance`.
 */
export function signatureProblem(
  rawBody: Buffer | string,
  header: string | undefined,
  secret: string,
  options: SignatureCheckOptions = {},
): WebhookSignatureErrorReason | undefined {
  const { toleranceSeconds, nowSeconds } = checkedTiming(options);

  if (header === undefined || header === '') return 'header_missing';
  const match = typeof header === 'string' ? SIGNATURE_HEADER_PATTERN.exec(header) : null;
  if (!match) return 'header_malformed';
  const [, timestampText, v1] = match;

  // The HMAC covers `t` exactly as it appears in the header, so a leading zero is not normalised away.
  const hmac = createHmac('sha256', secret).update(`${timestampText}.`, 'utf8');
  // A Buffer is hashed byte for byte: decoding it as a string could alter invalid UTF-8.
  if (typeof rawBody === 'string') hmac.update(rawBody, 'utf8');
  else hmac.update(rawBody);
  // Both are 32 bytes: the pattern fixed v1's length.
  if (!timingSafeEqual(hmac.digest(), Buffer.from(v1, 'hex'))) return 'signature_mismatch';

  if (Math.abs(nowSeconds - Number(timestampText)) > toleranceSeconds) return 'timestamp_out_of_tolerance';
  return undefined;
}

/** The options with their defaults; a RangeError for values that make the call itself wrong. */
export function checkedTiming(options: SignatureCheckOptions): Required<SignatureCheckOptions> {
  const toleranceSeconds = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const nowSeconds = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  if (!Number.isFinite(toleranceSeconds) || toleranceSeconds < 0) {
    throw new RangeError('toleranceSeconds must be a finite non-negative number');
  }
  if (!Number.isFinite(nowSeconds)) throw new RangeError('nowSeconds must be a finite number');
  return { toleranceSeconds, nowSeconds };
}
