import { Client, type ClientBase } from 'pg';
// Relative: jest's global setup loads this library, and the @payhook/* paths are not mapped there.
import {
  formatHost,
  parsePostgresUrl,
  type PostgresHost,
  type PostgresUrl,
  type TargetSessionAttrs,
} from '../../config/src/postgres-url';

/**
 * SQLSTATEs that say a host is not the one to use any more: it refuses writes (a primary turned
 * standby), or it is shutting down or not yet accepting connections (a failover in progress).
 */
const HOST_LEFT_SQLSTATES = new Set(['25006', '57P01', '57P02', '57P03']);
/** A walk that found no host waits this long before the next, doubling up to the maximum. */
const FIRST_BACKOFF_MS = 100;
const MAX_BACKOFF_MS = 2_000;
/** How long a walk waits for one host: a host that does not answer must not hold the others up. */
const PROBE_TIMEOUT_MS = 5_000;

/**
 * No host of the list is one to connect to now. Its SQLSTATE, 08001 (unable to establish a
 * connection, libpq's own for this), makes it a database outage for the error filters: 503.
 */
export class NoDatabaseHostError extends Error {
  override name = 'NoDatabaseHostError';
  readonly code = '08001';
}

/** What a walk learnt of a host: how it answered, or why it did not. */
type HostState =
  { host: PostgresHost; role: 'primary' | 'read-only' | 'standby' } | { host: PostgresHost; failure: string };

/** Parameter statuses a server sends at connect; PostgreSQL 14 and later include in_hot_standby. */
export type ParameterStatuses = Map<string, string>;

/** Records the parameter statuses of a client from its first message on. */
export function watchParameterStatuses(client: Client): ParameterStatuses {
  const statuses: ParameterStatuses = new Map();
  client.connection.on('parameterStatus', (message: { parameterName: string; parameterValue: string }) =>
    statuses.set(message.parameterName, message.parameterValue),
  );
  return statuses;
}

/**
 * Whether a connected client's server takes writes or is a standby: from the parameter statuses
 * it sent at connect when it is recent enough, else with one query (servers before 14).
 */
export async function sessionRole(
  client: ClientBase,
  statuses: ParameterStatuses,
): Promise<'primary' | 'read-only' | 'standby'> {
  const hotStandby = statuses.get('in_hot_standby');
  let standby: boolean;
  let readOnly: boolean;
  if (hotStandby !== undefined) {
    standby = hotStandby === 'on';
    readOnly = statuses.get('default_transaction_read_only') === 'on';
  } else {
    const { rows } = await client.query<{ standby: boolean; read_only: boolean }>(
      "SELECT pg_is_in_recovery() AS standby, current_setting('default_transaction_read_only') = 'on' AS read_only",
    );
    ({ standby, read_only: readOnly } = rows[0]);
  }
  if (standby) return 'standby';
  return readOnly ? 'read-only' : 'primary';
}

/**
 * The hosts of one postgres:// URL that lists several, and the one its connections go to now:
 * the first listed that takes writes (or, as target_session_attrs says, the first that answers,
 * or the first standby). One per URL in a process, shared by every pool and client made from it,
 * so a failover one connection notices moves them all.
 *
 * A connection lost, or a statement refused because its host is read-only or shutting down,
 * makes that host one to leave: every connection held on it is dropped (its holder's statement
 * fails as a lost connection does, the pool replaces it) and the next connect walks the list
 * again. While a walk finds no host, connects fail at once with NoDatabaseHostError until a
 * back-off (0.1 s doubling to 2 s) has passed, so an outage answers fast and costs the hosts
 * one walk at a time.
 */
export class DatabaseHosts {
  private static readonly byUrl = new Map<string, DatabaseHosts>();

  /** The hosts of `url`, or undefined when it names one host (node-postgres then connects as ever). */
  static of(url: string): DatabaseHosts | undefined {
    const known = DatabaseHosts.byUrl.get(url);
    if (known) return known;
    const parsed = parsePostgresUrl(url);
    if (parsed.hosts.length < 2) return undefined;
    const hosts = new DatabaseHosts(parsed);
    DatabaseHosts.byUrl.set(url, hosts);
    return hosts;
  }

  private target?: Promise<PostgresHost>;
  /** The host the last walk found, until it is left. */
  private chosen?: PostgresHost;
  private nextWalkAt = 0;
  private backoffMs = FIRST_BACKOFF_MS;
  private lastFailure?: NoDatabaseHostError;
  /** Connections made to the chosen host, to drop when it is left. */
  private readonly held = new Map<Client, PostgresHost>();

  private constructor(readonly url: PostgresUrl) {}

  get mode(): TargetSessionAttrs {
    return this.url.targetSessionAttrs;
  }

  /** The URL node-postgres is given for a host: the list's parameters with that one host. */
  urlFor(host: PostgresHost): string {
    return this.url.forHost(host);
  }

  /** The host to connect to now; walks the list when none is known. */
  choose(): Promise<PostgresHost> {
    if (this.target) return this.target;
    if (this.lastFailure && Date.now() < this.nextWalkAt) return Promise.reject(this.lastFailure);
    const walk = this.walk().then(
      (host) => {
        this.chosen = host;
        this.backoffMs = FIRST_BACKOFF_MS;
        this.lastFailure = undefined;
        return host;
      },
      (error: NoDatabaseHostError) => {
        this.target = undefined;
        this.lastFailure = error;
        this.nextWalkAt = Date.now() + this.backoffMs;
        this.backoffMs = Math.min(this.backoffMs * 2, MAX_BACKOFF_MS);
        throw error;
      },
    );
    this.target = walk;
    return walk;
  }

  /**
   * Watches a client connected to `host`: when its connection is lost or its host refuses a
   * statement as read-only or shutting down, the host is left.
   */
  hold(client: Client, host: PostgresHost): void {
    this.held.set(client, host);
    client.on('error', () => this.leave(host));
    client.connection.on('errorMessage', (message: { code?: string }) => {
      if (message.code !== undefined && HOST_LEFT_SQLSTATES.has(message.code)) this.leave(host);
    });
    client.once('end', () => this.held.delete(client));
  }

  /** Stops using `host`: the next connect walks the list, and connections held on it are dropped. */
  leave(host: PostgresHost): void {
    if (this.chosen === host) {
      this.chosen = undefined;
      this.target = undefined;
    }
    for (const [client, on] of this.held) {
      if (on !== host) continue;
      this.held.delete(client);
      // As if the server had gone: the client fails what it runs and the pool drops it.
      client.connection.stream.destroy();
    }
  }

  /** Asks every host at once and takes the first listed that fits the mode. */
  private async walk(): Promise<PostgresHost> {
    const states = this.url.hosts.map((host) => probe(this.url.forHost(host), host));
    const seen: HostState[] = [];
    let firstAnswering: PostgresHost | undefined;
    for (const pending of states) {
      const state = await pending;
      seen.push(state);
      if (!('role' in state)) continue;
      firstAnswering ??= state.host;
      if (this.mode === 'any') return state.host;
      if (this.mode === 'read-write' && state.role === 'primary') return state.host;
      if (this.mode === 'prefer-standby' && state.role === 'standby') return state.host;
    }
    if (this.mode === 'prefer-standby' && firstAnswering) return firstAnswering;
    const wanted = this.mode === 'read-write' ? 'takes writes' : 'answers';
    const found = seen.map((state) => `${formatHost(state.host)} (${'role' in state ? state.role : state.failure})`);
    throw new NoDatabaseHostError(`no PostgreSQL host of the list ${wanted}: ${found.join(', ')}`);
  }
}

/** Connects to one host, reads its role, and disconnects; never throws. */
async function probe(url: string, host: PostgresHost): Promise<HostState> {
  const client = new Client({
    connectionString: url,
    connectionTimeoutMillis: PROBE_TIMEOUT_MS,
    application_name: 'payhook-host-probe',
  });
  // A connection lost meanwhile fails what runs; unheard, its 'error' event would end the process.
  client.on('error', () => undefined);
  const statuses = watchParameterStatuses(client);
  try {
    await client.connect();
    return { host, role: await sessionRole(client, statuses) };
  } catch (error) {
    const { code, message } = error as { code?: string; message?: string };
    return { host, failure: code ?? message ?? String(error) };
  } finally {
    void client.end().catch(() => undefined);
  }
}
