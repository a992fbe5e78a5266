import { parsePostgresUrl, postgresUrlProblem } from './postgres-url';

describe('a postgres:// URL with one host or several', () => {
  it('lists its hosts in order, 5432 where a port is left out, IPv6 addresses without brackets', () => {
    const url = parsePostgresUrl('postgres://app:s3cret@db-a:5433,db-b,[::1]:6432,[fe80::1]/payhook');
    expect(url.hosts).toEqual([
      { host: 'db-a', port: 5433 },
      { host: 'db-b', port: 5432 },
      { host: '::1', port: 6432 },
      { host: 'fe80::1', port: 5432 },
    ]);
  });

  it('wants the host that takes writes unless target_session_attrs says otherwise', () => {
    expect(parsePostgresUrl('postgres://a,b/payhook').targetSessionAttrs).toBe('read-write');
    expect(parsePostgresUrl('postgresql://a,b/payhook?target_session_attrs=any').targetSessionAttrs).toBe('any');
    expect(parsePostgresUrl('postgres://a,b/payhook?target_session_attrs=prefer-standby').targetSessionAttrs).toBe(
      'prefer-standby',
    );
  });

  it('gives node-postgres one host at a time, with the user, database and other parameters kept', () => {
    const url = parsePostgresUrl(
      'postgres://app:p%40ss@db-a:5433,[::1]/payhook?target_session_attrs=read-write&sslmode=require',
    );
    expect(url.hosts.map((host) => url.forHost(host))).toEqual([
      'postgres://app:p%40ss@db-a:5433/payhook?sslmode=require',
      'postgres://app:p%40ss@[::1]:5432/payhook?sslmode=require',
    ]);
    expect(new URL(url.forHost(url.hosts[1])).hostname).toBe('[::1]');
  });

  it('points every host at another database, keeping the parameters', () => {
    const url = parsePostgresUrl('postgres://app@db-a,db-b:5433/payhook?target_session_attrs=read-write');
    expect(url.withDatabase('postgres')).toBe(
      'postgres://app@db-a:5432,db-b:5433/postgres?target_session_attrs=read-write',
    );
  });

  it('reads one host as before, an empty one included (node-postgres then uses localhost)', () => {
    expect(parsePostgresUrl('postgres://postgres@127.0.0.1:5432/payhook').hosts).toEqual([
      { host: '127.0.0.1', port: 5432 },
    ]);
    expect(parsePostgresUrl('postgres:///payhook').hosts).toEqual([{ host: '', port: 5432 }]);
  });

  it.each([
    ['mysql://db-a,db-b/payhook', 'must be a postgres:// URL'],
    ['postgres://db-a,,db-b/payhook', 'lists an empty host'],
    [
      'postgres://db-a:5432,db-b:54x2/payhook',
      'lists a port that is not 1-65535 (host number 2; a password with / ? # @ must be percent-encoded)',
    ],
    [
      'postgres://db-a,db-b:70000/payhook',
      'lists a port that is not 1-65535 (host number 2; a password with / ? # @ must be percent-encoded)',
    ],
    ['postgres://db-a,[::1/payhook', 'lists a host (number 2) that is not host[:port]'],
    [
      'postgres://db-a,db-b/payhook?target_session_attrs=standby',
      'has target_session_attrs=standby: it must be read-write, any, prefer-standby',
    ],
  ])('refuses %s in one line', (url, reason) => {
    expect(postgresUrlProblem(url, 'DATABASE_READ_URL')).toBe(reason);
  });

  it('refuses a DATABASE_URL of several hosts that would not pick the one taking writes', () => {
    expect(postgresUrlProblem('postgres://a,b/payhook?target_session_attrs=any', 'DATABASE_URL')).toBe(
      'has target_session_attrs=any: with several hosts it must be read-write (the apps write there)',
    );
    expect(postgresUrlProblem('postgres://a,b/payhook?target_session_attrs=any', 'DATABASE_READ_URL')).toBeNull();
    expect(postgresUrlProblem('postgres://a/payhook?target_session_attrs=any', 'DATABASE_URL')).toBeNull();
  });

  it('never repeats the password in a reason', () => {
    const reason = postgresUrlProblem('postgres://app:hunter2@db-a,db-b:x/payhook', 'DATABASE_URL');
    expect(reason).not.toBeNull();
    expect(reason).not.toContain('hunter2');
    // A password with an unescaped / spills into the host part: the message still holds none of it.
    const spilled = postgresUrlProblem('postgres://app:se/cr3t@db1/payhook', 'DATABASE_URL');
    expect(spilled).not.toBeNull();
    expect(spilled).not.toMatch(/cr3t|app:se/);
  });

  it('leaves target_session_attrs of one host as node-postgres did: it chooses nothing there', () => {
    expect(postgresUrlProblem('postgres://db-a/payhook?target_session_attrs=primary', 'DATABASE_URL')).toBeNull();
  });
});
