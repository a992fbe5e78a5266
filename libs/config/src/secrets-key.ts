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
 * SECRETS_KEY (DESIGN.md §2): keys the stored voucher PIN hashes and seals the webhook signing
 * secrets (sealed-secret.ts). Read the same way by the apps (validated config) and by migrations
 * (the raw environment).
 */
export function secretsKeyFrom(env: { SECRETS_KEY?: string; NODE_ENV?: string }): {
  key: Buffer;
  development: boolean;
} {
  const key = env.SECRETS_KEY ? decodeSecretsKey(env.SECRETS_KEY) : null;
  if (key) return { key, development: false };
  if (env.NODE_ENV === 'production') throw new Error('SECRETS_KEY is required when NODE_ENV=production');
  return { key: DEVELOPMENT_SECRETS_KEY, development: true };
}
