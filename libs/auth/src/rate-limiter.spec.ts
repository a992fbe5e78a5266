import { RateLimiter, RateLimitStore } from './rate-limiter';

/** The bucket arithmetic of rate_limit_buckets, in memory, on a clock the test moves; counts the takes. */
class BucketStore extends RateLimitStore {
  readonly buckets = new Map<string, { tokens: number; at: number }>();
  takes = 0;
  /** Tokens handed out in all, used or not. */
  granted = 0;
  failing = false;

  constructor(private readonly clock: () => number) {
    super();
  }

  take(keyId: string, wanted: number, perSecond: number): Promise<{ granted: number; left: number }> {
    this.takes += 1;
    if (this.failing) return Promise.reject(new Error('connection refused'));
    const now = this.clock();
    const bucket = this.buckets.get(keyId) ?? { tokens: 2 * perSecond, at: now };
    const tokens = Math.min(2 * perSecond, bucket.tokens + ((now - bucket.at) / 1000) * perSecond);
    const granted = Math.min(wanted, Math.floor(tokens));
    this.buckets.set(keyId, { tokens: tokens - granted, at: now });
    this.granted += granted;
    return Promise.resolve({ granted, left: tokens - granted });
  }
}

describe('RateLimiter', () => {
  let now: number;
  let store: BucketStore;
  const clock = () => now;
  const takeMany = (limiter: RateLimiter, count: number, key = 'key_a') =>
    Promise.all(Array.from({ length: count }, () => limiter.take(key)));

  beforeEach(() => {
    now = 0;
    store = new BucketStore(clock);
  });

  it('allows a burst of twice the rate, then asks the caller to wait', async () => {
    const limiter = new RateLimiter(5, store, clock);
    const answers = [];
    for (let i = 0; i < 11; i++) answers.push(await limiter.take('key_a'));
    expect(answers.slice(0, 10)).toEqual(Array(10).fill(0));
    expect(answers[10]).toBe(1);
  });

  it('refills at the rate per second', async () => {
    const limiter = new RateLimiter(5, store, clock);
    await takeMany(limiter, 10);
    expect(await limiter.take('key_a')).toBeGreaterThan(0);
    now += 200; // one token at 5 per second
    expect(await limiter.take('key_a')).toBe(0);
    expect(await limiter.take('key_a')).toBeGreaterThan(0);
  });

  it('holds a key to its one bucket across instances, however its requests are spread', async () => {
    const instances = [
      new RateLimiter(10, store, clock),
      new RateLimiter(10, store, clock),
      new RateLimiter(10, store, clock),
    ];
    let served = 0;
    for (let second = 0; second < 5; second++) {
      for (let i = 0; i < 60; i++) if ((await instances[i % 3].take('key_a')) === 0) served += 1;
      now += 1000;
    }
    // The burst of 20, then 10 a second: what all three let through together, not three times it.
    expect(served).toBeLessThanOrEqual(20 + 4 * 10);
    expect(served).toBeGreaterThanOrEqual(0.9 * (20 + 4 * 10));
  });

  it('asks the store once per lease, the lease doubling while each is used up, up to a twentieth of the rate', async () => {
    const limiter = new RateLimiter(100, store, clock);
    for (let i = 0; i < 100; i++) expect(await limiter.take('key_a')).toBe(0);
    // Leases of 1, 2 and 4, then 5 (a twentieth of 100) for the other 93 requests.
    expect(store.takes).toBe(3 + Math.ceil(93 / 5));
  });

  it('lets requests that arrive together share the one lease in flight', async () => {
    const limiter = new RateLimiter(100, store, clock);
    expect(await takeMany(limiter, 20)).toEqual(Array(20).fill(0));
    expect(store.takes).toBe(6); // 1 + 2 + 4 + 5 + 5 + 5 ≥ 20: one at a time, not one per request
  });

  it('drops a lease not used within a second, and takes a smaller one next', async () => {
    const limiter = new RateLimiter(100, store, clock);
    for (let i = 0; i < 8; i++) await limiter.take('key_a'); // leases of 1, 2, 4 and 5; 4 of the last unused
    expect(store.granted).toBe(12);
    now += 1000;
    await limiter.take('key_a');
    expect(store.takes).toBe(5);
    expect(store.granted).toBe(12 + 2); // half the expired lease
  });

  it('wastes next to nothing of the bucket on an instance that sees a key rarely', async () => {
    const limiter = new RateLimiter(100, store, clock);
    let requests = 0;
    for (; now < 20_000; now += 600) {
      expect(await limiter.take('key_a')).toBe(0);
      requests += 1;
    }
    expect(store.granted - requests).toBeLessThanOrEqual(requests / 10);
  });

  it('refuses a key the store refused without asking again until its next token is due', async () => {
    const limiter = new RateLimiter(1, store, clock);
    await takeMany(limiter, 2);
    const takes = store.takes;
    expect(await limiter.take('key_a')).toBe(1);
    expect(await limiter.take('key_a')).toBe(1);
    expect(store.takes).toBe(takes + 1);
    now += 1000;
    expect(await limiter.take('key_a')).toBe(0);
  });

  it('keeps keys apart', async () => {
    const limiter = new RateLimiter(1, store, clock);
    await takeMany(limiter, 2);
    expect(await limiter.take('key_a')).toBeGreaterThan(0);
    expect(await limiter.take('key_b')).toBe(0);
  });

  it('lets requests through while the store cannot be reached, asking it again only a second later', async () => {
    const limiter = new RateLimiter(1, store, clock);
    store.failing = true;
    expect(await takeMany(limiter, 5)).toEqual(Array(5).fill(0));
    expect(store.takes).toBe(1); // a store that hangs is waited for once, not request after request
    now += 1000;
    store.failing = false;
    await takeMany(limiter, 3);
    expect(store.takes).toBeGreaterThan(1);
  });

  it('is off at 0 and never asks the store', async () => {
    const limiter = new RateLimiter(0, store, clock);
    expect(await takeMany(limiter, 1000)).toEqual(Array(1000).fill(0));
    expect(store.takes).toBe(0);
  });
});
