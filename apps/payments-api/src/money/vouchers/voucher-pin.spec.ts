import { keyedPinHash, normalizePin, pinDigest, splitPins } from './voucher-pin';

describe('voucher PINs', () => {
  it('normalize to 12 to 20 digits, ignoring dashes and spaces', () => {
    expect(normalizePin('1234-5678-9012-3456')).toBe('1234567890123456');
    expect(normalizePin(' 1234 5678 9012 345678 ')).toBe('123456789012345678');
    expect(normalizePin('12345678901')).toBeNull();
    expect(normalizePin('123456789012345678901')).toBeNull();
    expect(normalizePin('1234-5678-9012-345x')).toBeNull();
  });

  it('are stored keyed: the same under one key, different under another, never the plain digest', () => {
    const [key, other] = [Buffer.alloc(32, 1), Buffer.alloc(32, 2)];
    const digest = pinDigest('1234567890123456');
    const hash = keyedPinHash(key, digest);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).not.toContain('1234567890123456');
    expect(keyedPinHash(key, pinDigest('1234567890123456'))).toBe(hash);
    expect(keyedPinHash(other, digest)).not.toBe(hash);
    expect(hash).not.toBe(digest);
  });

  it('are split by lines, commas or semicolons, each once', () => {
    expect(splitPins('1111-2222-3333-4444\r\n5555666677778888, 1111-2222-3333-4444;\n\n')).toEqual([
      '1111-2222-3333-4444',
      '5555666677778888',
    ]);
    expect(splitPins(' \n ')).toEqual([]);
  });
});
