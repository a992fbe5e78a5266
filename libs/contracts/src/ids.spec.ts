import { isIdOf, newId, pooledRandomBytes, randomBase62 } from './ids';

describe('ids', () => {
  it('prefixes each kind and adds 24 base62 characters', () => {
    expect(newId('payment')).toMatch(/^pay_[0-9A-Za-z]{24}$/);
    expect(newId('event')).toMatch(/^evt_[0-9A-Za-z]{24}$/);
    expect(newId('merchant')).toMatch(/^mch_[0-9A-Za-z]{24}$/);
    expect(newId('apiKey')).toMatch(/^key_[0-9A-Za-z]{24}$/);
    expect(newId('refund')).toMatch(/^rfd_[0-9A-Za-z]{24}$/);
    expect(newId('webhookEndpoint')).toMatch(/^we_[0-9A-Za-z]{24}$/);
  });

  it('uses every base62 character with no visible bias', () => {
    const counts = new Map<string, number>();
    for (const char of randomBase62(62_000)) counts.set(char, (counts.get(char) ?? 0) + 1);
    expect(counts.size).toBe(62);
    for (const count of counts.values()) {
      expect(count).toBeGreaterThan(800);
      expect(count).toBeLessThan(1200);
    }
  });

  it('draws fresh bytes for every caller, across refills of the pool, and hands out copies', () => {
    const drawn = Array.from({ length: 1_000 }, () => pooledRandomBytes(24)); // ~6 refills of 4 KiB
    expect(new Set(drawn.map((bytes) => bytes.toString('hex'))).size).toBe(1_000);
    const kept = Buffer.from(drawn[999]);
    pooledRandomBytes(24);
    expect(drawn[999]).toEqual(kept);
    expect(drawn.every((bytes) => bytes.some((byte) => byte !== 0))).toBe(true);
    expect(pooledRandomBytes(10_000)).toHaveLength(10_000);
  });

  it('recognises ids of a kind', () => {
    expect(isIdOf('payment', newId('payment'))).toBe(true);
    expect(isIdOf('payment', newId('event'))).toBe(false);
    expect(isIdOf('payment', 'pay_short')).toBe(false);
    expect(isIdOf('payment', 'pay_ABCDEFGHIJKLMNOPQRSTUVWX;')).toBe(false);
    expect(isIdOf('webhookEndpoint', newId('webhookEndpoint'))).toBe(true);
    expect(isIdOf('webhookEndpoint', 'wex_ABCDEFGHIJKLMNOPQRSTUVWX')).toBe(false);
  });
});
