import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Secrets stored at rest (webhook signing secrets), sealed with AES-256-GCM under SECRETS_KEY.
 * The stored text says what it is and which key sealed it:
 *
 *   v1:<keyId>:<iv>:<ciphertext>:<tag>     (iv, ciphertext and tag in base64url)
 *
 * keyId is a fingerprint of the key, so a reader holding SECRETS_KEY and SECRETS_KEY_PREVIOUS
 * knows which one opens a row, and a rotation can count the rows still under the old key. The
 * additional data binds a sealed value to its row: copied into another row, it does not open.
 * Opening never returns garbage: a wrong key, a changed byte or another row throws.
 */

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const BASE64URL = /^[A-Za-z0-9_-]*$/;

/** Why a stored value did not open. Messages never hold the value, sealed or plain. */
export class SealedSecretError extends Error {
  override readonly name = 'SealedSecretError';
}

/** The first 8 hex characters of HMAC-SHA256(key, 'payhook key id'): names a key, reveals nothing of it. */
export function secretsKeyId(key: Buffer): string {
  return createHmac('sha256', key).update('payhook key id').digest('hex').slice(0, 8);
}

/** The keyId a sealed value names, or null when it is not sealed text at all (a plain secret, say). */
export function sealedKeyId(stored: string): string | null {
  const parts = stored.split(':');
  return parts.length === 5 && parts[0] === VERSION && /^[0-9a-f]{8}$/.test(parts[1]) ? parts[1] : null;
}

/** How every value sealed under `keyId` begins: to find them in a query (`starts_with(column, prefix)`). */
export function sealedPrefix(keyId: string): string {
  return `${VERSION}:${keyId}:`;
}

/**
 * What a webhook signing secret is bound to: its own endpoint. Copied into another endpoint's row,
 * even one of the same merchant and mode, it does not open.
 */
export function signingSecretContext(endpoint: { id: string; merchantId: string; livemode: boolean }): string {
  return `${modeSigningSecretContext(endpoint)}:${endpoint.id}`;
}

/**
 * How secrets were bound when a merchant had one endpoint per mode: read only by the migrations that
 * sealed secrets so and then bound each to its endpoint.
 */
export function modeSigningSecretContext(endpoint: { merchantId: string; livemode: boolean }): string {
  return `webhook_endpoints.signing_secret:${endpoint.merchantId}:${endpoint.livemode ? 'live' : 'test'}`;
}

interface SealingKey {
  id: string;
  /** Derived from SECRETS_KEY, so the cipher key is not the key that also hashes voucher PINs. */
  cipherKey: Buffer;
}

function sealingKey(key: Buffer): SealingKey {
  if (key.length !== 32) throw new RangeError('a secrets key is 32 bytes');
  return {
    id: secretsKeyId(key),
    cipherKey: Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), 'payhook sealed secret v1', 32)),
  };
}

const additionalData = (keyId: string, context: string) => Buffer.from(`${VERSION}:${keyId}:${context}`, 'utf8');

/**
 * SECRETS_KEY and, during a rotation, SECRETS_KEY_PREVIOUS: seals under the current key, opens
 * under either. Pure (node:crypto only); build one from the validated config.
 */
export class SecretsKeyring {
  private readonly current: SealingKey;
  private readonly previous: SealingKey | null;

  constructor(current: Buffer, previous: Buffer | null = null) {
    this.current = sealingKey(current);
    this.previous = previous && !previous.equals(current) ? sealingKey(previous) : null;
  }

  get currentKeyId(): string {
    return this.current.id;
  }

  /** Null when no previous key is set: nothing is being rotated. */
  get previousKeyId(): string | null {
    return this.previous?.id ?? null;
  }

  /** A fresh random IV each time: two seals of one secret never look alike. */
  seal(plain: string, context: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.current.cipherKey, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(additionalData(this.current.id, context));
    const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [VERSION, this.current.id, iv, ciphertext, cipher.getAuthTag()]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join(':');
  }

  /** The plain secret, or SealedSecretError: not sealed text, an unknown key, or it does not open. */
  open(stored: string, context: string): string {
    const parts = stored.split(':');
    const keyId = sealedKeyId(stored);
    if (!keyId || !parts.slice(2).every((part) => BASE64URL.test(part))) {
      throw new SealedSecretError(`not a sealed secret (expected ${VERSION}:<keyId>:<iv>:<ciphertext>:<tag>)`);
    }
    const [, , ivText, ciphertextText, tagText] = parts;
    const iv = Buffer.from(ivText, 'base64url');
    const tag = Buffer.from(tagText, 'base64url');
    if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) {
      throw new SealedSecretError('not a sealed secret (iv or tag of the wrong length)');
    }
    const key = [this.current, this.previous].find((candidate) => candidate?.id === keyId);
    if (!key) {
      throw new SealedSecretError(
        `sealed under key ${keyId}, which is neither SECRETS_KEY (${this.current.id})` +
          (this.previous ? ` nor SECRETS_KEY_PREVIOUS (${this.previous.id})` : ' (SECRETS_KEY_PREVIOUS is not set)'),
      );
    }
    try {
      const decipher = createDecipheriv('aes-256-gcm', key.cipherKey, iv, { authTagLength: TAG_BYTES });
      decipher.setAAD(additionalData(keyId, context));
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(Buffer.from(ciphertextText, 'base64url')), decipher.final()]).toString(
        'utf8',
      );
    } catch {
      // GCM cannot tell these apart, and nothing else about the value is worth saying.
      throw new SealedSecretError(`sealed value under key ${keyId} does not open: changed, or sealed for another row`);
    }
  }

  /** True when `stored` is sealed under the current key (nothing to re-seal). */
  isCurrent(stored: string): boolean {
    return sealedKeyId(stored) === this.current.id;
  }
}
