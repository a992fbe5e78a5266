import { Inject, Injectable } from '@nestjs/common';
import { hashApiKey } from './api-key';
import { ApiKeyResolver, RATE_LIMIT_PER_SECOND, type AuthContext } from './auth-context';
import { RateLimiter, RateLimitStore } from './rate-limiter';
import { TtlCache } from './ttl-cache';

/**
 * Resolved keys are cached briefly to spare the create path a round trip; the TTL is what
 * bounds how long a revoked key keeps working (at most 5 s).
 */
export const API_KEY_CACHE_TTL_MS = 2_000;

/**
 * A well-formed key that matched no row is remembered as unknown this long, so a client that keeps
 * sending a wrong or revoked key costs the database one lookup a second, not one per request. Short,
 * because a key that starts to exist (a restored one, say) is refused here until the entry expires.
 * A freshly issued key needs no exception: it is random, so it cannot have been looked up before.
 */
export const UNKNOWN_API_KEY_TTL_MS = 1_000;

/**
 * The one key cache and rate limiter of an API instance. Nest builds a guard per module that uses
 * it, so this state lives in a singleton provider instead: a key's limit must not multiply by the
 * number of route families.
 */
@Injectable()
export class ApiKeyAuthenticator {
  private readonly cache = new TtlCache<AuthContext>(API_KEY_CACHE_TTL_MS);
  // Apart from the known keys, so a flood of made-up keys fills (and empties) only this one.
  private readonly unknown = new TtlCache<true>(UNKNOWN_API_KEY_TTL_MS);
  private readonly rateLimiter: RateLimiter;

  constructor(
    private readonly resolver: ApiKeyResolver,
    rateLimitStore: RateLimitStore,
    @Inject(RATE_LIMIT_PER_SECOND) ratePerSecond: number,
  ) {
    this.rateLimiter = new RateLimiter(ratePerSecond, rateLimitStore);
  }

  async resolve(key: string): Promise<AuthContext | null> {
    const keyHash = hashApiKey(key);
    const cached = this.cache.get(keyHash);
    if (cached) return cached;
    if (this.unknown.get(keyHash)) return null;
    const resolved = await this.resolver.resolve(keyHash);
    if (resolved) this.cache.set(keyHash, resolved);
    else this.unknown.set(keyHash, true);
    return resolved;
  }

  /** 0 when the key may make this request; otherwise the seconds to wait. */
  takeToken(keyId: string): Promise<number> {
    return this.rateLimiter.take(keyId);
  }
}
