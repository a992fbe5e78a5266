import { Client } from 'pg';
import { connectionOptions, databaseClient } from './database-client';

describe('connectionOptions', () => {
  it('leaves a URL of one host to node-postgres as it is: no Client of ours, no walk, no extra query', () => {
    const url = 'postgres://app:s3cret@db-a:5433/payhook?target_session_attrs=read-write';
    expect(connectionOptions(url)).toEqual({ url });
    expect(Object.getPrototypeOf(databaseClient(url))).toBe(Client.prototype);
  });

  it('gives a pool of a host list one host to start from and a Client that finds the one to use', () => {
    const url = 'postgres://app:s3cret@db-a:5433,db-b/payhook?target_session_attrs=read-write&sslmode=disable';
    const options = connectionOptions(url);
    expect(options.url).toBe('postgres://app:s3cret@db-a:5433/payhook?sslmode=disable');
    expect(options.Client?.prototype).toBeInstanceOf(Client);
    // One class per URL: every pool and client of it follows the same host.
    expect(connectionOptions(url).Client).toBe(options.Client);
    expect(databaseClient(url)).toBeInstanceOf(options.Client!);
  });
});
