import { Inject, Injectable } from '@nestjs/common';
import type { SecretsKeyring } from '@payhook/config';
import { PaymentsApiEnv } from '../../platform/config/payments-api.env';
import { keyedPinHash, pinDigest } from './voucher-pin';

/** What a row stores for its PIN under SECRETS_KEY: the keyed hash, and the digest sealed beside it. */
export interface StoredPinKey {
  pinHash: string;
  pinDigestSealed: string;
}

/** A sealed digest opens for its own row only: copied into another row, it does not. */
const digestContext = (voucherId: string) => `vouchers.pin_digest_sealed:${voucherId}`;

/**
 * The stored hash of a PIN under SECRETS_KEY, and the one under SECRETS_KEY_PREVIOUS during a rotation.
 *
 * Each row also keeps the PIN's SHA-256 digest sealed (AES-256-GCM) under SECRETS_KEY, as webhook
 * signing secrets are (ADR 0011): a rotation must read the digest back to recompute the hash under the
 * new key, or a PIN never seen again (a redeemed one) would stay under the old key and, once that key is
 * dropped, load again as a new voucher. Sealing it adds no exposure: without SECRETS_KEY the sealed
 * digest is as opaque as the hash, and with it an attacker can already test PINs against the hash.
 */
@Injectable()
export class PinHashes {
  private readonly keys: Buffer[];
  private readonly keyring: SecretsKeyring;

  constructor(@Inject(PaymentsApiEnv) env: PaymentsApiEnv) {
    const current = env.secretsKey.key;
    const previous = env.previousSecretsKey;
    // As the keyring: a previous key equal to the current one is no rotation.
    this.keys = [current, ...(previous && !previous.equals(current) ? [previous] : [])];
    this.keyring = env.secretsKeyring;
  }

  /** Names of SECRETS_KEY and SECRETS_KEY_PREVIOUS (null when nothing is being rotated), never the keys. */
  get keyIds(): { current: string; previous: string | null } {
    return { current: this.keyring.currentKeyId, previous: this.keyring.previousKeyId };
  }

  /** What a PIN is stored as from now on. */
  current(pin: string): string {
    return keyedPinHash(this.keys[0], pinDigest(pin));
  }

  /** Every hash a stored row of a PIN of this digest may still carry: current first. */
  candidatesOfDigest(digest: string): string[] {
    return this.keys.map((key) => keyedPinHash(key, digest));
  }

  /** What row `voucherId` stores for a PIN of this digest under SECRETS_KEY. */
  storedUnderCurrentKey(voucherId: string, digest: string): StoredPinKey {
    return {
      pinHash: keyedPinHash(this.keys[0], digest),
      pinDigestSealed: this.keyring.seal(digest, digestContext(voucherId)),
    };
  }

  /** The digest row `voucherId` sealed, under either key; SealedSecretError when it does not open. */
  openDigest(voucherId: string, sealed: string): string {
    return this.keyring.open(sealed, digestContext(voucherId));
  }
}
