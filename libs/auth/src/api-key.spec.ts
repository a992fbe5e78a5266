import { createHash } from 'node:crypto';
import { apiKeyMode, generateApiKey, hashApiKey, parseBearer } from './api-key';

describe('API keys', () => {
  it('generates prefixed keys of 190 random bits, each different', () => {
    const test = generateApiKey('test');
    const live = generateApiKey('live');
    expect(test.key).toMatch(/^svc_test_[0-9A-Za-z]{32}$/);
    expect(live.key).toMatch(/^svc_live_[0-9A-Za-z]{32}$/);
    expect(generateApiKey('test').key).not.toBe(test.key);
  });

  it('stores only a SHA-256 of the key and its last four characters', () => {
    const { key, hash, last4 } = generateApiKey('test');
    expect(hash).toBe(createHash('sha256').update(key).digest('hex'));
    expect(hash).not.toContain(key.slice(9));
    expect(last4).toBe(key.slice(-4));
    expect(hashApiKey(key)).toBe(hash);
  });

  it('tells the mode of a well-formed key and nothing else', () => {
    expect(apiKeyMode(generateApiKey('live').key)).toBe('live');
    expect(apiKeyMode('svc_test_short')).toBeNull();
    expect(apiKeyMode('sk_test_0123456789abcdefghijklmnopqrstuv')).toBeNull();
  });

  it.each([
    [undefined, null],
    ['', null],
    ['Bearer', null],
    ['Bearer ', null],
    ['Basic abc', null],
    ['bearer abc', null],
    ['Bearer a b', null],
    ['Bearer svc_test_abc', 'svc_test_abc'],
  ])('parses the Authorization header %p', (header, token) => {
    expect(parseBearer(header)).toBe(token);
  });
});
