import { bodyFingerprint, canonicalJson } from './canonical-json';

describe('canonicalJson', () => {
  it('sorts keys at every depth and drops white space', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: 'x' } })).toBe(
      '{"a":{"c":"x","d":[3,{"y":2,"z":1}]},"b":1}',
    );
  });

  it('keeps array order, which is meaningful', () => {
    expect(canonicalJson([2, 1])).not.toBe(canonicalJson([1, 2]));
  });

  it('escapes strings exactly as JSON does', () => {
    expect(canonicalJson({ 'k"ey': 'line\nbreak ₩' })).toBe('{"k\\"ey":"line\\nbreak ₩"}');
  });

  it('treats null and primitives as JSON values', () => {
    expect(canonicalJson(null)).toBe('null');
    expect(canonicalJson(15000)).toBe('15000');
    expect(canonicalJson(true)).toBe('true');
  });
});

describe('bodyFingerprint', () => {
  it('is the same for the same body in any key order', () => {
    const parsedA = JSON.parse('{"orderId":"o1","amount":15000,"currency":"KRW"}') as unknown;
    const parsedB = JSON.parse('{ "currency" : "KRW", "amount": 15000, "orderId": "o1" }') as unknown;
    expect(bodyFingerprint(parsedA)).toBe(bodyFingerprint(parsedB));
  });

  it('differs when any value differs', () => {
    expect(bodyFingerprint({ amount: 15000 })).not.toBe(bodyFingerprint({ amount: 15001 }));
    expect(bodyFingerprint({ amount: 1 })).not.toBe(bodyFingerprint({ amount: '1' }));
  });

  it('is a SHA-256 hex digest', () => {
    expect(bodyFingerprint({})).toMatch(/^[0-9a-f]{64}$/);
  });
});
