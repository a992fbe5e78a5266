import { TtlCache } from './ttl-cache';

describe('TtlCache', () => {
  it('forgets an entry once its time is up', () => {
    let now = 1_000;
    const cache = new TtlCache<string>(2_000, 10, () => now);
    cache.set('k', 'v');
    now += 1_999;
    expect(cache.get('k')).toBe('v');
    now += 1;
    expect(cache.get('k')).toBeUndefined();
  });

  it('stays bounded', () => {
    const cache = new TtlCache<number>(60_000, 3);
    [1, 2, 3, 4].forEach((n) => cache.set(String(n), n));
    expect(cache.get('4')).toBe(4);
    expect(cache.get('1')).toBeUndefined();
  });
});
