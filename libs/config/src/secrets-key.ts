import { createHash } from 'node:crypto';

/** Outside production only, and said at start: a key everyone can read is no secret. */
const DEVELOPMENT_SECRETS_KEY = createHash('sha256')
  .update('payhook development secrets key: never for production')
  .digest();

/** 32 bytes from their base64 (standard or url-safe); null for anything else. */
export function decodeSecretsKey(text: string): Buffer | null {
  if (!/^[A-Za-z0-9+/_-]{42,43}=?$/.test(text)) return null;
  const key = Buffer.from(text, 'base64');
  return key.length === 32 ? key : null;
}

/**
 * Why a key must not guard production data, or null: the development key is in this source for
 * anyone to read, and an all-zero key is what a blank or placeholder value decodes to.
 */
export function publiclyKnownSecretsKey(key: Buffer): string | null {
  if (key.equals(DEVELOPMENT_SECRETS_KEY)) return 'is the public development key';
  if (key.every((byte) => byte === 0)) return 'is all zero bytes';
  return null;
}

/** The one line production refuses a publicly known SECRETS_KEY with. */
export function publiclyKnownSecretsKeyMessage(reason: string): string {
  return `${reason}, which anyone can know: in production set 32 random bytes (openssl rand -base64 32)`;
}

/**
 * SECRETS_KEY: keys the stored voucher PIN hashes and seals the webhook signing
 * secrets (sealed-secret.ts). Read the same way by the apps (validated config) and by migrations
 * (the raw environment).
 */
export function secretsKeyFrom(env: { SECRETS_KEY?: string; NODE_ENV?: string }): {
  key: Buffer;
  development: boolean;
} {
  const key = env.SECRETS_KEY ? decodeSecretsKey(env.SECRETS_KEY) : null;
  if (key && env.NODE_ENV === 'production') {
    const reason = publiclyKnownSecretsKey(key);
    if (reason) throw new Error(`SECRETS_KEY ${publiclyKnownSecretsKeyMessage(reason)}`);
  }
  if (key) return { key, development: false };
  if (env.NODE_ENV === 'production') throw new Error('SECRETS_KEY is required when NODE_ENV=production');
  return { key: DEVELOPMENT_SECRETS_KEY, development: true };
}
