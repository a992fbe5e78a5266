import { Inject, Injectable } from '@nestjs/common';
import { createHmac, hkdfSync } from 'node:crypto';
import { PaymentsApiEnv } from '../config/payments-api.env';
import { canonicalJson } from './canonical-json';

/**
 * Idempotency fingerprints of bodies that carry personal data (a refund's bank account): an
 * HMAC-SHA256 of the canonical JSON under a key derived from SECRETS_KEY, so the stored fingerprint
 * cannot be tested against guessed account numbers, as a bare SHA-256 could. During a rotation a
 * key claimed before it still matches under SECRETS_KEY_PREVIOUS.
 */
@Injectable()
export class KeyedFingerprints {
  private readonly keys: Buffer[];

  constructor(@Inject(PaymentsApiEnv) env: PaymentsApiEnv) {
    const current = env.secretsKey.key;
    const previous = env.previousSecretsKey;
    this.keys = [current, ...(previous && !previous.equals(current) ? [previous] : [])].map((key) =>
      // Its own key: the secrets key itself also seals and hashes other things.
      Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), 'payhook idempotency fingerprint v1', 32)),
    );
  }

  /** Every fingerprint a stored key of this body may carry: the current key's first (the one to store). */
  of(body: unknown): [string, ...string[]] {
    const text = canonicalJson(body);
    const [first, ...rest] = this.keys.map((key) => createHmac('sha256', key).update(text).digest('hex'));
    return [first, ...rest];
  }
}
