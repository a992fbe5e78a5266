import { createHmac } from 'node:crypto';

import { assertUnixSeconds } from './signature-header';
import { signWebhook } from './webhook-signature';

/**
 * The headers of a delivery by their wire names. The same names as WEBHOOK_HEADERS in libs/contracts
 * (standard-webhooks.spec.ts holds them equal): signing stands alone and imports no other lib.
 */
const HEADER_NAMES = {
  eventId: 'Service-Event-Id',
  signature: 'Service-Signature',
  webhookId: 'webhook-id',
  webhookTimestamp: 'webhook-timestamp',
  webhookSignature: 'webhook-signature',
} as const;

const SECRET_PREFIX = 'whsec_';

export interface DeliveryHeadersInput {
  eventId: string;
  /** The event's bytes exactly as sent. */
  body: Buffer | string;
  /**
   * The endpoint's valid secrets, newest first: the first signs `Service-Signature` (its format has room for
   * one `v1=`), each signs one entry of `webhook-signature`, so a receiver still on an older secret verifies too.
   */
  secrets: readonly string[];
  /** The attempt's time; both header sets carry this one timestamp. */
  nowSeconds?: number;
}

/**
 * Every header of one delivery attempt, signed afresh: callers
 * build them per attempt, never store them.
 */
export function deliveryHeaders({
  eventId,
  body,
  secrets,
  nowSeconds = Math.floor(Date.now() / 1000),
}: DeliveryHeadersInput): Record<string, string> {
  if (secrets.length === 0) throw new RangeError('a delivery needs at least one signing secret');
  return {
    [HEADER_NAMES.eventId]: eventId,
    [HEADER_NAMES.signature]: signWebhook(secrets[0], body, nowSeconds),
    [HEADER_NAMES.webhookId]: eventId,
    [HEADER_NAMES.webhookTimestamp]: String(nowSeconds),
    [HEADER_NAMES.webhookSignature]: secrets
      .map((secret) => standardWebhookSignature(secret, eventId, nowSeconds, body))
      .join(' '),
  };
}

/** `v1,<base64 of HMAC-SHA256(key, "<id>.<t>.<body>")>`, as the Standard Webhooks specification signs. */
export function standardWebhookSignature(
  secret: string,
  id: string,
  timestamp: number,
  rawBody: Buffer | string,
): string {
  assertUnixSeconds(timestamp);
  const hmac = createHmac('sha256', standardWebhooksKey(secret)).update(`${id}.${timestamp}.`, 'utf8');
  // A Buffer is hashed byte for byte, like computeSignature does.
  if (typeof rawBody === 'string') hmac.update(rawBody, 'utf8');
  else hmac.update(rawBody);
  return `v1,${hmac.digest('base64')}`;
}

/**
 * The specification's key: the base64 decoding of the secret after `whsec_`. Unlike Service-Signature, whose
 * key is the whole string. Our secrets are `whsec_` + 32 base62 characters, plain base64 of 24 bytes, so every
 * Standard Webhooks library derives the same key from the same string.
 */
function standardWebhooksKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
}
