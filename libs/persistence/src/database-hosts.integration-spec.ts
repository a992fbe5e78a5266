import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { pollUntil } from '../../../test/support/poll-until';
import { throwawayClusters, type Cluster, type ThrowawayClusters } from '../../../test/support/throwaway-clusters';
import { dataSourceOptions } from './data-source';
import { databaseClient } from './database-client';
import { NoDatabaseHostError } from './database-hosts';
import { ensureDatabase } from './ensure-database';
import { NotificationListener } from './notification-listener';
import { isDatabaseUnavailable } from './pg-errors';

/**
 * A DATABASE_URL that lists several hosts, on clusters of the spec's own: a primary and a streaming
 * standby of it, the standby listed first. The pool must find the primary, and after the primary
 * crashes and the standby is promoted, the new one, with the statements in between failing as a
 * database outage does (503), never hanging.
 */
describe('a database URL that lists several hosts', () => {
  let clusters: ThrowawayClusters;
  let primary: Cluster;
  let standby: Cluster;
  const openedSources: DataSource[] = [];
  const openedClients: { end(): Promise<unknown> }[] = [];

  beforeAll(async () => {
    clusters = throwawayClusters('failover');
    primary = await clusters.primary('primary');
    standby = await clusters.standby('standby', primary);
  }, 120_000);

  afterAll(async () => {
    for (const source of openedSources) if (source.isInitialized) await source.destroy().catch(() => undefined);
    for (const client of openedClients) await client.end().catch(() => undefined);
    clusters?.remove();
  });

  const hostList = (database: string, ...hosts: Cluster[]) =>
    `postgres://postgres@${hosts.map((host) => `127.0.0.1:${host.port}`).join(',')}/${database}`;

  async function open(url: string, applicationName = 'payhook-failover-spec'): Promise<DataSource> {
    const source = await new DataSource(
      dataSourceOptions({ url, entities: [], applicationName, poolSize: 4 }),
    ).initialize();
    openedSources.push(source);
    return source;
  }

  async function serverPort(source: DataSource): Promise<number> {
    const [{ port }] = await source.query<{ port: number }[]>('SELECT inet_server_port() AS port');
    return port;
  }

  /** A client of one cluster, bypassing the host list. */
  async function direct(cluster: Cluster, database: string): Promise<Client> {
    const client = new Client({ connectionString: `${cluster.url}/${database}` });
    client.on('error', () => undefined);
    await client.connect();
    openedClients.push(client);
    return client;
  }

  /** How many rows a cluster's table has, or -1 while it has no such database or table yet. */
  async function rowsOn(cluster: Cluster, database: string, table: string): Promise<number> {
    const client = new Client({ connectionString: `${cluster.url}/${database}` });
    client.on('error', () => undefined);
    try {
      await client.connect();
      const { rows } = await client.query<{ rows: number }>(`SELECT count(*)::int AS rows FROM ${table}`);
      return rows[0].rows;
    } catch {
      return -1;
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  /** Runs `statement` until it succeeds; every failure before must be a database outage. */
  async function untilItSucceeds(source: DataSource, statement: string): Promise<unknown[]> {
    const failures: unknown[] = [];
    await pollUntil(
      () =>
        source.query(statement).then(
          () => true,
          (error: unknown) => {
            failures.push(error);
            return false;
          },
        ),
      (succeeded) => succeeded,
    );
    return failures;
  }

  /** Connects a client of its own until it succeeds; every failure before must be a database outage. */
  async function untilConnected(url: string): Promise<Client> {
    const failures: unknown[] = [];
    const client = await pollUntil(
      async () => {
        const attempt = databaseClient(url);
        attempt.on('error', () => undefined);
        return attempt.connect().then(
          () => attempt,
          (error: unknown) => {
            failures.push(error);
            return undefined;
          },
        );
      },
      (connected) => connected !== undefined,
    );
    openedClients.push(client!);
    expect(failures.filter((error) => !isDatabaseUnavailable(error))).toEqual([]);
    return client!;
  }

  it('reads go to a standby with prefer-standby, to the first host that answers with any', async () => {
    const reads = await open(`${hostList('postgres', primary, standby)}?target_session_attrs=prefer-standby`);
    expect(await serverPort(reads)).toBe(standby.port);
    const any = await open(`${hostList('postgres', standby, primary)}?target_session_attrs=any`);
    expect(await serverPort(any)).toBe(standby.port);
  });

  it('finds the primary behind a standby listed first, and the promoted standby after the primary crashes', async () => {
    const url = hostList('payhook_failover', standby, primary);
    // CREATE DATABASE goes to the primary too: a standby refuses it.
    await ensureDatabase(url);
    const db = await open(url);
    expect(await serverPort(db)).toBe(primary.port);
    await db.query('CREATE TABLE written (id serial PRIMARY KEY, at text NOT NULL)');
    await db.query("INSERT INTO written (at) VALUES ('before')");

    const notified: string[] = [];
    const listener = new NotificationListener({
      url,
      channel: 'failover_spec',
      applicationName: 'payhook-failover-spec-listener',
      onNotify: () => notified.push('notified'),
      retryMs: 100,
    });
    openedClients.push({ end: () => listener.stop() });
    await listener.start();
    await pollUntil(
      () => db.query('NOTIFY failover_spec').then(() => notified.length),
      (count) => count > 0,
    );

    // The standby has replayed the database and the row before the primary goes (replication here
    // is asynchronous).
    await pollUntil(
      () => rowsOn(standby, 'payhook_failover', 'written'),
      (rows) => rows === 1,
    );

    // A client of its own that connected once and ended: nothing is held on the primary when it goes.
    const lone = `${url}?application_name=payhook-failover-spec-lone`;
    const first = databaseClient(lone);
    await first.connect();
    await first.end();

    clusters.stop(primary, 'immediate');
    // With no host taking writes, statements fail as an outage (503), promptly.
    const meanwhile = await db.query("INSERT INTO written (at) VALUES ('meanwhile')").then(
      () => 'written',
      (error: unknown) => error,
    );
    expect(isDatabaseUnavailable(meanwhile)).toBe(true);
    // Once the pool has let go of the crashed host, a connect asks every host and says what it found.
    const noHost = await pollUntil(
      () =>
        db.query('SELECT 1').then(
          () => new Error('answered'),
          (error: Error) => error,
        ),
      (error) => error instanceof NoDatabaseHostError,
    );
    expect(noHost.message).toBe(
      `no PostgreSQL host of the list takes writes: 127.0.0.1:${standby.port} (standby), 127.0.0.1:${primary.port} (ECONNREFUSED)`,
    );
    expect(isDatabaseUnavailable(noHost)).toBe(true);

    clusters.promote(standby);
    const failures = await untilItSucceeds(db, "INSERT INTO written (at) VALUES ('after')");
    expect(failures.filter((error) => !isDatabaseUnavailable(error))).toEqual([]);
    expect(await serverPort(db)).toBe(standby.port);
    expect(await db.query('SELECT at FROM written ORDER BY id')).toEqual([{ at: 'before' }, { at: 'after' }]);

    // The host it knew refuses connections; the next connect after that walks the list again.
    const lonely = await untilConnected(lone);
    expect((await lonely.query<{ port: number }>('SELECT inet_server_port() AS port')).rows[0].port).toBe(standby.port);

    // LISTEN moved too: a NOTIFY on the new primary reaches the listener.
    const before = notified.length;
    await pollUntil(
      () => db.query('NOTIFY failover_spec').then(() => notified.length),
      (count) => count > before,
    );
  }, 120_000);

  it('leaves a primary that stops taking writes, and comes back when it takes them again', async () => {
    // The promoted standby of the test before is the only primary now.
    const url = hostList('payhook_failover', primary, standby);
    const db = await open(url, 'payhook-failover-spec-read-only');
    expect(await serverPort(db)).toBe(standby.port);
    const admin = await direct(standby, 'postgres');

    await admin.query('ALTER SYSTEM SET default_transaction_read_only = on');
    await admin.query('SELECT pg_reload_conf()');
    // A statement refused as read-only (25006) is an outage too, and so are the connects that follow.
    const refusals = await pollUntil(
      () =>
        db.query("INSERT INTO written (at) VALUES ('read-only')").then(
          () => 'written',
          (error: unknown) => error,
        ),
      (outcome) => outcome !== 'written',
    );
    expect(isDatabaseUnavailable(refusals)).toBe(true);

    await admin.query('ALTER SYSTEM RESET default_transaction_read_only');
    await admin.query('SELECT pg_reload_conf()');
    const failures = await untilItSucceeds(db, "INSERT INTO written (at) VALUES ('writable again')");
    expect(failures.filter((error) => !isDatabaseUnavailable(error))).toEqual([]);
  }, 60_000);

  it('leaves a primary that stops answering (nothing closed, nothing refused) for its promoted standby', async () => {
    const frozen = await clusters.primary('frozen');
    const successor = await clusters.standby('successor', frozen);
    const db = await open(hostList('postgres', frozen, successor), 'payhook-failover-spec-frozen');
    expect(await serverPort(db)).toBe(frozen.port);
    clusters.pause(frozen);
    try {
      // The statement is sent and never answered: the heartbeat gives the host up, and the statement
      // fails as an outage does (503) instead of waiting for ever.
      const stalled = await db.query('SELECT 1').then(
        () => 'answered',
        (error: unknown) => error,
      );
      expect(isDatabaseUnavailable(stalled)).toBe(true);
      clusters.promote(successor);
      const failures = await untilItSucceeds(db, 'SELECT 1');
      expect(failures.filter((error) => !isDatabaseUnavailable(error))).toEqual([]);
      expect(await serverPort(db)).toBe(successor.port);
    } finally {
      clusters.resume(frozen);
    }
  }, 60_000);
});
