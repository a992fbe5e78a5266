import { Inject, Injectable } from '@nestjs/common';
import { secretsKeyId } from '@payhook/config';
import { createHmac, hkdfSync } from 'node:crypto';
import { PaymentsApiEnv } from '../../platform/config/payments-api.env';
import { canonicalJson } from './canonical-json';
import type { IdempotencyKeysRepository } from './idempotency-keys.repository';

/** How every fingerprint made under the key `keyId` begins: to count them (`starts_with(fingerprint, prefix)`). */
export const keyedFingerprintPrefix = (keyId: string) => `hmac1:${keyId}:`;

/**
 * Idempotency fingerprints of bodies that carry personal data (a refund's bank account): an
 * HMAC-SHA256 of the canonical JSON under a key derived from SECRETS_KEY, so the stored fingerprint
 * cannot be tested against guessed account numbers, as a bare SHA-256 could. Each names its key's
 * id, so that a rotation can tell whether stored keys still need SECRETS_KEY_PREVIOUS: a key
 * claimed before the rotation matches under the previous key only while that key is configured.
 */
@Injectable()
export class KeyedFingerprints {
  private readonly keys: { prefix: string; hmacKey: Buffer }[];

  constructor(@Inject(PaymentsApiEnv) env: PaymentsApiEnv) {
    const current = env.secretsKey.key;
    const previous = env.previousSecretsKey;
    this.keys = [current, ...(previous && !previous.equals(current) ? [previous] : [])].map((key) => ({
      prefix: keyedFingerprintPrefix(secretsKeyId(key)),
      // Its own key: the secrets key itself also seals and hashes other things.
      hmacKey: Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), 'payhook idempotency fingerprint v1', 32)),
    }));
  }

  /**
   * Every fingerprint a stored key of this body may carry: the current key's first (the one to
   * store), then the previous key's during a rotation.
   */
  of(body: unknown): [string, ...string[]] {
    const text = canonicalJson(body);
    const [first, ...rest] = this.keys.map(
      ({ prefix, hmacKey }) => prefix + createHmac('sha256', hmacKey).update(text).digest('hex'),
    );
    return [first, ...rest];
  }
}

/**
 * What a rotation's report says of the unexpired keys fingerprinted under the key `keyId` (the
 * previous one), or null when there are none. A fingerprint cannot be re-keyed (only the body's HMAC
 * is stored): a retry matches under the previous key only while it is configured.
 */
export async function keysFingerprintedUnder(
  keys: Pick<IdempotencyKeysRepository, 'unexpiredWithFingerprintPrefix'>,
  keyId: string,
): Promise<string | null> {
  const { count, until } = await keys.unexpiredWithFingerprintPrefix(keyedFingerprintPrefix(keyId));
  if (!until || count === 0) return null;
  return (
    `${count} idempotency keys (of refunds, and of payments created with a cash receipt) still ` +
    `fingerprinted under the previous key: keep SECRETS_KEY_PREVIOUS until ${until.toISOString()} ` +
    `(their last expiry)`
  );
}
