import { Inject, Injectable } from '@nestjs/common';
import { secretsKeyId } from '@payhook/config';
import { createHash, createHmac, hkdfSync } from 'node:crypto';
import { PaymentsApiEnv } from '../../platform/config/payments-api.env';

/** How a code stored under the key `keyId` begins: `hmac1:<key id>:`, to count them by key. */
export const keyedRecoveryCodePrefix = (keyId: string) => `hmac1:${keyId}:`;

/**
 * The SHA-256 of a code salted with its member's id (the same code of two members never hashes
 * alike), as codes were stored before they were keyed; the keyed hash is taken over it.
 */
export function recoveryCodeDigest(memberId: string, code: string): string {
  return createHash('sha256')
    .update(`${memberId}:${code.trim().toLowerCase().replace(/[\s-]/g, '')}`)
    .digest('hex');
}

/**
 * Two-step recovery codes as they are stored: an HMAC-SHA256 under a key derived from SECRETS_KEY,
 * so that a copy of the database alone cannot test guessed codes, named by the key's id. During a
 * rotation a code stored under SECRETS_KEY_PREVIOUS still matches; codes only ever need checking, so
 * they cannot be moved to the new key and work while the previous key is set (docs/running.md, Rotating
 * SECRETS_KEY).
 */
@Injectable()
export class RecoveryCodeHashes {
  private readonly keys: { prefix: string; hmacKey: Buffer }[];

  constructor(@Inject(PaymentsApiEnv) env: PaymentsApiEnv) {
    const current = env.secretsKey.key;
    const previous = env.previousSecretsKey;
    this.keys = [current, ...(previous && !previous.equals(current) ? [previous] : [])].map((key) => ({
      prefix: keyedRecoveryCodePrefix(secretsKeyId(key)),
      // Its own key: the secrets key itself also seals and hashes other things.
      hmacKey: Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), 'payhook recovery code v1', 32)),
    }));
  }

  /** What a new code is stored as. */
  current(memberId: string, code: string): string {
    return this.ofDigest(recoveryCodeDigest(memberId, code));
  }

  /** The current key's hash of a code stored unkeyed (its digest) before codes were keyed. */
  ofDigest(digest: string): string {
    const [{ prefix, hmacKey }] = this.keys;
    return prefix + createHmac('sha256', hmacKey).update(digest).digest('hex');
  }

  /**
   * Every form a stored code may have: the current key's first, then the previous key's during a
   * rotation, and last its bare digest, which a code made before codes were keyed keeps until the
   * start-up pass has keyed it (or while an older instance of a rolling deploy still makes such codes).
   */
  candidates(memberId: string, code: string): string[] {
    const digest = recoveryCodeDigest(memberId, code);
    return [
      ...this.keys.map(({ prefix, hmacKey }) => prefix + createHmac('sha256', hmacKey).update(digest).digest('hex')),
      digest,
    ];
  }
}
