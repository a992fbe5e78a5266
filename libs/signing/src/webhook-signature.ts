import { createHmac, timingSafeEqual } from 'node:crypto';

import { assertUnixSeconds, buildSignatureHeader, parseSignatureHeader } from './signature-header';

/** Spec §5.2 step 4 / §8: accepted clock distance between `t` and now, in either direction. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

export type WebhookSignatureErrorReason =
  'header_missing' | 'header_malformed' | 'signature_mismatch' | 'timestamp_out_of_tolerance';

const REASON_MESSAGES: Record<WebhookSignatureErrorReason, string> = {
  header_missing: 'Signature header is missing',
  header_malformed: 'Signature header is malformed',
  signature_mismatch: 'Signature does not match',
  timestamp_out_of_tolerance: 'Signature timestamp is outside the tolerance window',
};

export class WebhookSignatureError extends Error {
  override readonly name = 'WebhookSignatureError';

  // Messages are fixed per reason so nothing derived from the secret or expected signature leaks out.
  constructor(readonly reason: WebhookSignatureErrorReason) {
    super(REASON_MESSAGES[reason]);
  }
}

export interface VerifyWebhookSignatureOptions {
  toleranceSeconds?: number;
  nowSeconds?: number;
}

export function computeSignature(secret: string, timestamp: number, rawBody: Buffer | string): string {
  assertUnixSeconds(timestamp);
  return hmacHex(secret, String(timestamp), rawBody);
}

export function signWebhook(secret: string, rawBody: Buffer | string, nowSeconds = currentUnixSeconds()): string {
  // Signed fresh per attempt: callers pass the attempt's time, never a stored signature.
  return buildSignatureHeader(nowSeconds, computeSignature(secret, nowSeconds, rawBody));
}

/**
 * Returns nothing when the delivery is authentic and fresh; otherwise throws WebhookSignatureError.
 *
 * Order: format, then HMAC, then timestamp. `t` is attacker-controlled until the HMAC covers it, so only an
 * authenticated header can earn `timestamp_out_of_tolerance`; that reason then reliably means "genuine but
 * stale or clock-skewed" (a replay or a delayed delivery) rather than "someone sent garbage with an old t".
 * Both orders reject the same inputs; the HMAC costs microseconds, so skipping it for stale headers buys nothing.
 */
export function verifyWebhookSignature(
  rawBody: Buffer | string,
  header: string | undefined,
  secret: string,
  options: VerifyWebhookSignatureOptions = {},
): void {
  const toleranceSeconds = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const nowSeconds = options.nowSeconds ?? currentUnixSeconds();
  if (!Number.isFinite(toleranceSeconds) || toleranceSeconds < 0) {
    throw new RangeError('toleranceSeconds must be a finite non-negative number');
  }
  if (!Number.isFinite(nowSeconds)) {
    throw new RangeError('nowSeconds must be a finite number');
  }

  if (header === undefined || header === '') throw new WebhookSignatureError('header_missing');
  const parsed = parseSignatureHeader(header);
  if (!parsed) throw new WebhookSignatureError('header_malformed');

  // HMAC over `t` exactly as it appears in the header (spec §5.2 step 2), so a leading zero is not normalised away.
  const timestampText = header.slice('t='.length, header.indexOf(','));
  const expected = Buffer.from(hmacHex(secret, timestampText, rawBody), 'hex');
  const received = Buffer.from(parsed.v1, 'hex');
  // Both are 32 bytes once the header passed the strict format; the length check keeps timingSafeEqual from throwing.
  if (expected.length !== received.length || !timingSafeEqual(expected, received)) {
    throw new WebhookSignatureError('signature_mismatch');
  }

  if (Math.abs(nowSeconds - parsed.timestamp) > toleranceSeconds) {
    throw new WebhookSignatureError('timestamp_out_of_tolerance');
  }
}

function hmacHex(secret: string, timestampText: string, rawBody: Buffer | string): string {
  const hmac = createHmac('sha256', secret).update(`${timestampText}.`, 'utf8');
  // A Buffer is hashed byte for byte: re-decoding it as a string could alter invalid UTF-8 and break the HMAC.
  if (typeof rawBody === 'string') hmac.update(rawBody, 'utf8');
  else hmac.update(rawBody);
  return hmac.digest('hex');
}

function currentUnixSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
