import { buildSignatureHeader, parseSignatureHeader } from './signature-header';

const HEX = 'a5277998323d05150f06cd9fb663fa1aa5e2d684a4f34d4ed81fb5e7b0fd93c5';

describe('buildSignatureHeader', () => {
  it('formats t and v1 in the spec order', () => {
    expect(buildSignatureHeader(1700000000, HEX)).toBe(`t=1700000000,v1=${HEX}`);
  });

  it('round-trips through parseSignatureHeader', () => {
    expect(parseSignatureHeader(buildSignatureHeader(1700000000, HEX))).toEqual({ timestamp: 1700000000, v1: HEX });
  });

  it.each([
    ['uppercase hex', HEX.toUpperCase()],
    ['63 hex chars', HEX.slice(1)],
    ['65 hex chars', `${HEX}0`],
  ])('refuses to build a header the parser would reject (%s)', (_case, v1) => {
    expect(() => buildSignatureHeader(1700000000, v1)).toThrow(RangeError);
  });

  it.each([-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])('refuses timestamp %p', (t) => {
    expect(() => buildSignatureHeader(t, HEX)).toThrow(RangeError);
  });
});

describe('parseSignatureHeader', () => {
  it('accepts exactly t=<digits>,v1=<64 lowercase hex>', () => {
    expect(parseSignatureHeader(`t=1700000000,v1=${HEX}`)).toEqual({ timestamp: 1700000000, v1: HEX });
  });

  it.each([
    ['empty', ''],
    ['v1 before t', `v1=${HEX},t=1700000000`],
    ['uppercase hex', `t=1700000000,v1=${HEX.toUpperCase()}`],
    ['one uppercase hex char', `t=1700000000,v1=${HEX.slice(0, 63)}C`],
    ['space after the comma', `t=1700000000, v1=${HEX}`],
    ['space before the comma', `t=1700000000 ,v1=${HEX}`],
    ['leading whitespace', ` t=1700000000,v1=${HEX}`],
    ['trailing whitespace', `t=1700000000,v1=${HEX} `],
    ['trailing newline', `t=1700000000,v1=${HEX}\n`],
    ['no v1', 't=1700000000'],
    ['no v1 with trailing comma', 't=1700000000,'],
    ['empty v1', 't=1700000000,v1='],
    ['no t', `v1=${HEX}`],
    ['empty t', `t=,v1=${HEX}`],
    ['63 hex chars', `t=1700000000,v1=${HEX.slice(1)}`],
    ['65 hex chars', `t=1700000000,v1=${HEX}0`],
    ['extra v0 part', `t=1700000000,v1=${HEX},v0=${HEX}`],
    ['extra leading part', `v0=${HEX},t=1700000000,v1=${HEX}`],
    ['non-hex char in v1', `t=1700000000,v1=${HEX.slice(0, 63)}g`],
    ['non-digit t', `t=17000000x0,v1=${HEX}`],
    ['negative t', `t=-1700000000,v1=${HEX}`],
    ['decimal t', `t=1700000000.5,v1=${HEX}`],
    ['t longer than 15 digits', `t=1234567890123456,v1=${HEX}`],
    ['uppercase keys', `T=1700000000,V1=${HEX}`],
    ['semicolon separator', `t=1700000000;v1=${HEX}`],
    ['colon instead of equals', `t:1700000000,v1:${HEX}`],
  ])('rejects %s', (_case, header) => {
    expect(parseSignatureHeader(header)).toBeNull();
  });

  it('rejects a non-string handed over by the HTTP layer', () => {
    expect(parseSignatureHeader(undefined as unknown as string)).toBeNull();
    expect(parseSignatureHeader([`t=1700000000,v1=${HEX}`] as unknown as string)).toBeNull();
  });
});
