import { generateApiKey } from './api-key';
import { API_KEY_CACHE_TTL_MS, ApiKeyAuthenticator, UNKNOWN_API_KEY_TTL_MS } from './api-key-authenticator';
import { ApiKeyResolver, type AuthContext } from './auth-context';
import { RateLimitStore } from './rate-limiter';

/** Stands in for the api_keys table: counts the lookups that would reach the database. */
class TableResolver extends ApiKeyResolver {
  readonly rows = new Map<string, AuthContext>();
  lookups = 0;

  resolve(keyHash: string): Promise<AuthContext | null> {
    this.lookups += 1;
    return Promise.resolve(this.rows.get(keyHash) ?? null);
  }
}

/** Rate limiting is not under test here (rate-limiter.spec.ts): every take is granted. */
class UnlimitedStore extends RateLimitStore {
  take(_keyId: string, wanted: number): Promise<{ granted: number; left: number }> {
    return Promise.resolve({ granted: wanted, left: 0 });
  }
}

const context = (keyId: string): AuthContext => ({
  keyId,
  merchantId: 'mch_1',
  mode: 'test',
  livemode: false,
  merchantStatus: 'integrating',
});

describe('ApiKeyAuthenticator', () => {
  let table: TableResolver;
  let authenticator: ApiKeyAuthenticator;

  beforeEach(() => {
    jest.useFakeTimers({ now: 1_000_000 });
    table = new TableResolver();
    authenticator = new ApiKeyAuthenticator(table, new UnlimitedStore(), 100);
  });
  afterEach(() => jest.useRealTimers());

  it('looks an unknown key up once per short while, not once per request', async () => {
    const { key } = generateApiKey('test');
    for (let i = 0; i < 50; i++) await expect(authenticator.resolve(key)).resolves.toBeNull();
    expect(table.lookups).toBe(1);

    jest.advanceTimersByTime(UNKNOWN_API_KEY_TTL_MS);
    await expect(authenticator.resolve(key)).resolves.toBeNull();
    expect(table.lookups).toBe(2);
  });

  it('accepts a key issued elsewhere within the short while it was remembered as unknown', async () => {
    const { key, hash } = generateApiKey('test');
    await expect(authenticator.resolve(key)).resolves.toBeNull();
    table.rows.set(hash, context('key_elsewhere'));

    jest.advanceTimersByTime(UNKNOWN_API_KEY_TTL_MS);
    await expect(authenticator.resolve(key)).resolves.toMatchObject({ keyId: 'key_elsewhere' });
  });

  it('still refuses a revoked key within 5 s', async () => {
    const { key, hash } = generateApiKey('live');
    table.rows.set(hash, context('key_revoked'));
    await expect(authenticator.resolve(key)).resolves.toMatchObject({ keyId: 'key_revoked' });
    table.rows.delete(hash);

    jest.advanceTimersByTime(API_KEY_CACHE_TTL_MS);
    await expect(authenticator.resolve(key)).resolves.toBeNull();
    expect(API_KEY_CACHE_TTL_MS + UNKNOWN_API_KEY_TTL_MS).toBeLessThanOrEqual(5_000);
  });

  it('keeps known keys cached through a flood of made-up ones', async () => {
    const { key, hash } = generateApiKey('test');
    table.rows.set(hash, context('key_known'));
    await authenticator.resolve(key);
    for (let i = 0; i < 10_001; i++) await authenticator.resolve(generateApiKey('test').key);
    const lookups = table.lookups;
    await expect(authenticator.resolve(key)).resolves.toMatchObject({ keyId: 'key_known' });
    expect(table.lookups).toBe(lookups);
  });
});
