import { PayhookError } from '@payhook/contracts';

/** 1–255 printable ASCII characters. */
const IDEMPOTENCY_KEY = /^[\x20-\x7e]{1,255}$/;

export function parseIdempotencyKey(header: string | string[] | undefined): string {
  if (header === undefined) {
    throw new PayhookError(
      'idempotency_key_missing',
      'Send an Idempotency-Key header: a value unique to this payment, reused when you retry.',
    );
  }
  if (typeof header !== 'string' || !IDEMPOTENCY_KEY.test(header)) {
    throw new PayhookError('idempotency_key_invalid', 'Idempotency-Key must be 1 to 255 printable ASCII characters.');
  }
  return header;
}
