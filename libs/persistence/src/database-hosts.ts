import type { Socket } from 'node:net';
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
/**
 * A walk that found no host waits this long before the next, doubling up to the maximum: a standby
 * promoted during an outage is found within about a second of it.
 */
const FIRST_BACKOFF_MS = 100;
const MAX_BACKOFF_MS = 1_000;
/** How long a walk waits for one host to connect and say what it is (milliseconds on a healthy one). */
const PROBE_TIMEOUT_MS = 2_000;
/**
 * Once a host that fits has answered, how long a walk still waits for hosts listed before it that
 * have not: a host that stops answering must not hold every walk for the whole probe timeout.
 */
const LIST_ORDER_GRACE_MS = 300;
/** The chosen host is asked whether it still fits this often, on a connection of its own… */
const HEARTBEAT_EVERY_MS = 1_000;
/**
 * …and left when it does not answer within this: a host that hangs (a frozen machine, a network
 * that drops packets) closes nothing, and without it the connections held there would wait for
 * ever. Long enough that a busy but healthy server is never taken for a hung one.
 */
const HEARTBEAT_STALL_MS = 5_000;
/** SQLSTATE of a server out of connection slots: busy, not gone. */
const TOO_MANY_CONNECTIONS = '53300';

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
 * again. So does a host that stops answering: a heartbeat asks the chosen host every second, on a
 * connection of its own, and a host silent for 5 s (or no longer the primary) is left. While a walk
 * finds no host, connects fail at once with NoDatabaseHostError until a back-off (0.1 s doubling
 * to 1 s) has passed, so an outage answers fast and costs the hosts one walk at a time.
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
  private heartbeat?: HostHeartbeat;

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
   * statement as read-only or shutting down, the host is left. While clients are held on the
   * chosen host, a heartbeat asks it whether it still answers and fits.
   */
  hold(client: Client, host: PostgresHost): void {
    this.held.set(client, host);
    if (!this.heartbeat && this.chosen === host) {
      const heartbeat = new HostHeartbeat(this.url.forHost(host), this.mode, {
        inUse: () => [...this.held.values()].includes(host),
        gone: () => this.leave(host),
        idle: () => {
          if (this.heartbeat === heartbeat) this.heartbeat = undefined;
        },
      });
      this.heartbeat = heartbeat;
    }
    client.on('error', () => this.leave(host));
    client.connection.on('errorMessage', (message: { code?: string }) => {
      if (message.code !== undefined && HOST_LEFT_SQLSTATES.has(message.code)) this.leave(host);
    });
    client.once('end', () => this.held.delete(client));
  }

  /** A client being ended by its holder: no longer one to watch or drop. */
  release(client: Client): void {
    this.held.delete(client);
  }

  /** Stops using `host`: the next connect walks the list, and connections held on it are dropped. */
  leave(host: PostgresHost): void {
    if (this.chosen === host) {
      this.chosen = undefined;
      this.target = undefined;
      this.heartbeat?.stop();
      this.heartbeat = undefined;
    }
    for (const [client, on] of this.held) {
      if (on !== host) continue;
      this.held.delete(client);
      // As if the server had gone: the client fails what it runs and the pool drops it.
      client.connection.stream.destroy();
    }
  }

  /**
   * Asks every host at once and takes the first listed that fits the mode, not waiting more than
   * LIST_ORDER_GRACE_MS for a host listed before it that has not answered yet.
   */
  private async walk(): Promise<PostgresHost> {
    const states: (HostState | undefined)[] = this.url.hosts.map(() => undefined);
    const pending = new Map(
      this.url.hosts.map((host, index) => [
        index,
        probe(this.url.forHost(host), host).then((state) => {
          states[index] = state;
          pending.delete(index);
        }),
      ]),
    );
    let graceOver = false;
    let graceTimer: NodeJS.Timeout | undefined;
    let endGrace = (): void => undefined;
    const graceEnded = new Promise<void>((resolve) => (endGrace = resolve));
    try {
      for (;;) {
        const decision = this.decide(states, graceOver);
        if (decision.host) return decision.host;
        if (pending.size === 0) break;
        if (decision.fitLater && !graceTimer) {
          graceTimer = setTimeout(() => {
            graceOver = true;
            endGrace();
          }, LIST_ORDER_GRACE_MS);
        }
        await Promise.race([...pending.values(), graceEnded]);
      }
    } finally {
      clearTimeout(graceTimer);
    }
    const wanted = this.mode === 'read-write' ? 'takes writes' : 'answers';
    const found = (states as HostState[]).map(
      (state) => `${formatHost(state.host)} (${'role' in state ? state.role : state.failure})`,
    );
    throw new NoDatabaseHostError(`no PostgreSQL host of the list ${wanted}: ${found.join(', ')}`);
  }

  /**
   * The host a walk takes from what it knows so far: the first listed that fits with every host
   * before it known (or, once `graceOver`, skipped); else whether one that fits waits on those.
   */
  private decide(states: (HostState | undefined)[], graceOver: boolean): { host?: PostgresHost; fitLater?: boolean } {
    let waiting = false;
    for (const state of states) {
      if (state === undefined) {
        waiting ||= !graceOver;
        continue;
      }
      if (!('role' in state) || !fits(state.role, this.mode)) continue;
      return waiting ? { fitLater: true } : { host: state.host };
    }
    // prefer-standby with no standby: the first that answers, once every host has said what it is.
    if (this.mode === 'prefer-standby' && states.every((state) => state !== undefined)) {
      const answering = states.find((state) => 'role' in state);
      if (answering) return { host: answering.host };
    }
    return {};
  }
}

/** Whether a host of `role` is one to connect to for `mode` (prefer-standby's fallback aside). */
function fits(role: 'primary' | 'read-only' | 'standby', mode: TargetSessionAttrs): boolean {
  if (mode === 'any') return true;
  if (mode === 'read-write') return role === 'primary';
  return role === 'standby';
}

/**
 * Asks the chosen host every HEARTBEAT_EVERY_MS, on one connection of its own, what it is, while
 * connections are held there (`inUse`; else it ends and says `idle`); calls `gone` once when the
 * host does not answer within HEARTBEAT_STALL_MS, drops the connection or refuses it, or
 * (read-write) no longer takes writes. Its timers and socket never keep a process alive.
 */
interface HeartbeatListener {
  inUse(): boolean;
  gone(): void;
  idle(): void;
}

class HostHeartbeat {
  private client?: Client;
  private timer?: NodeJS.Timeout;
  private stopped = false;

  constructor(
    private readonly url: string,
    private readonly mode: TargetSessionAttrs,
    private readonly listener: HeartbeatListener,
  ) {
    this.next();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.client?.connection.stream.destroy();
    this.client = undefined;
  }

  private next(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => void this.beat(), HEARTBEAT_EVERY_MS);
    this.timer.unref();
  }

  private async beat(): Promise<void> {
    if (!this.listener.inUse()) {
      this.stop();
      this.listener.idle();
      return;
    }
    const stall = setTimeout(() => this.fail(), HEARTBEAT_STALL_MS);
    stall.unref();
    try {
      const client = this.client ?? (await this.connect());
      if (this.stopped) return;
      // Asked, not taken from the parameter statuses: those say what the host was at connect.
      const role = await sessionRole(client, new Map());
      if (this.mode === 'read-write' && role !== 'primary') return this.fail();
      this.next();
    } catch (error) {
      // Out of connection slots is a busy host, not a gone one: ask again at the next beat.
      if ((error as { code?: string }).code === TOO_MANY_CONNECTIONS) {
        this.client = undefined;
        this.next();
      } else {
        this.fail();
      }
    } finally {
      clearTimeout(stall);
    }
  }

  private async connect(): Promise<Client> {
    const client = new Client({
      connectionString: this.url,
      connectionTimeoutMillis: HEARTBEAT_STALL_MS,
      application_name: 'payhook-host-heartbeat',
    });
    // A connection lost between beats: the next beat's statement fails, and that leaves the host.
    client.on('error', () => undefined);
    await client.connect();
    (client.connection.stream as Socket).unref();
    if (this.stopped) client.connection.stream.destroy();
    else this.client = client;
    return client;
  }

  private fail(): void {
    if (this.stopped) return;
    this.stop();
    this.listener.gone();
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
