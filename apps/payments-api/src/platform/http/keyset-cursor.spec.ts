import { decodeCursor, encodeCursor } from './keyset-cursor';

const position = { createdAt: new Date('2026-11-21T14:05:09.123Z'), id: 'pay_ABCDEFGHIJKLMNOPQRSTUVWX' };

describe('keyset cursor', () => {
  it('round-trips a position', () => {
    expect(decodeCursor(encodeCursor(position), 'payment')).toEqual(position);
  });

  it('is URL safe', () => {
    expect(encodeCursor(position)).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it.each([
    ['not base64 json', 'abc'],
    ['an empty string', ''],
    ['an object', Buffer.from('{"a":1}').toString('base64url')],
    ['a bad date', Buffer.from('["yesterday","pay_ABCDEFGHIJKLMNOPQRSTUVWX"]').toString('base64url')],
    [
      'a non-canonical date',
      Buffer.from('["2026-11-21T14:05:09Z","pay_ABCDEFGHIJKLMNOPQRSTUVWX"]').toString('base64url'),
    ],
    [
      'another kind of id',
      Buffer.from('["2026-11-21T14:05:09.123Z","evt_ABCDEFGHIJKLMNOPQRSTUVWX"]').toString('base64url'),
    ],
    ['an SQL fragment as id', Buffer.from(`["2026-11-21T14:05:09.123Z","pay_' OR 1=1 --"]`).toString('base64url')],
    ['three items', Buffer.from('["2026-11-21T14:05:09.123Z","pay_ABCDEFGHIJKLMNOPQRSTUVWX",1]').toString('base64url')],
  ])('rejects %s', (_, text) => {
    expect(decodeCursor(text, 'payment')).toBeNull();
  });
});
