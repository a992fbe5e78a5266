import { connectionCap, RESERVED_FILES, softFileLimit } from './connection-limits';

describe('connection limits', () => {
  const limits = (soft: string) =>
    [
      'Limit                     Soft Limit           Hard Limit           Units     ',
      'Max processes             63704                63704                processes ',
      `Max open files            ${soft.padEnd(20)} 1048576              files     `,
    ].join('\n');

  it('reads the soft open-file limit, not the hard one', () => {
    expect(softFileLimit(limits('20000'))).toBe(20000);
    expect(softFileLimit(limits('unlimited'))).toBeNull();
    expect(softFileLimit(null)).toBeNull();
  });

  it('stays below the file limit, whatever MAX_CONNECTIONS says', () => {
    expect(connectionCap(20000)).toBe(20000 - RESERVED_FILES);
    expect(connectionCap(20000, 5000)).toBe(5000);
    expect(connectionCap(1024, 100_000)).toBe(1024 - RESERVED_FILES);
    // Unknown: the common default soft limit, not "no limit".
    expect(connectionCap(null)).toBe(1024 - RESERVED_FILES);
  });
});
