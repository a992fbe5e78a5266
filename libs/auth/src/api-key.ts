import { createHash } from 'node:crypto';
import { API_KEY_PREFIXES, randomBase62, type ApiKeyMode } from '@payhook/contracts';

/** 32 base62 characters ≈ 190 bits of secret after the prefix. */
const KEY_SECRET_LENGTH = 32;
const API_KEY_PATTERN = /^svc_(test|live)_[0-9A-Za-z]{32}$/;

export interface GeneratedApiKey {
  key: string;
  hash: string;
  last4: string;
}

export function generateApiKey(mode: ApiKeyMode): GeneratedApiKey {
  const key = API_KEY_PREFIXES[mode] + randomBase62(KEY_SECRET_LENGTH);
  return { key, hash: hashApiKey(key), last4: key.slice(-4) };
}

/**
 * Keys carry ~190 random bits, so a fast unsalted SHA-256 is enough to make a leaked table
 * useless (no dictionary can cover that space) and keeps the per-request check cheap.
 */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** The mode a well-formed key claims, or null when the string cannot be one of our keys. */
export function apiKeyMode(key: string): ApiKeyMode | null {
  const match = API_KEY_PATTERN.exec(key);
  return match ? (match[1] as ApiKeyMode) : null;
}

/** `Bearer <token>` → token; null for a missing or malformed header. */
export function parseBearer(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer ([\x21-\x7e]+)$/.exec(header);
  return match ? match[1] : null;
}
