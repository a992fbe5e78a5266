import { RateLimiter } from './rate-limiter';

describe('RateLimiter', () => {
  it('allows a burst of twice the rate, then asks the caller to wait', () => {
    const limiter = new RateLimiter(5, () => 0);
    const answers = Array.from({ length: 11 }, () => limiter.take('key_a'));
    expect(answers.slice(0, 10)).toEqual(Array(10).fill(0));
    expect(answers[10]).toBe(1);
  });

  it('refills at the rate per second', () => {
    let now = 0;
    const limiter = new RateLimiter(5, () => now);
    for (let i = 0; i < 10; i++) limiter.take('key_a');
    expect(limiter.take('key_a')).toBeGreaterThan(0);
    now += 200; // one token at 5 per second
    expect(limiter.take('key_a')).toBe(0);
    expect(limiter.take('key_a')).toBeGreaterThan(0);
  });

  it('keeps keys apart', () => {
    const limiter = new RateLimiter(1, () => 0);
    limiter.take('key_a');
    limiter.take('key_a');
    expect(limiter.take('key_a')).toBeGreaterThan(0);
    expect(limiter.take('key_b')).toBe(0);
  });

  it('is off at 0', () => {
    const limiter = new RateLimiter(0, () => 0);
    expect(Array.from({ length: 1000 }, () => limiter.take('key_a')).every((wait) => wait === 0)).toBe(true);
  });
});
