import { Client, type ClientConfig } from 'pg';
// Relative: jest's global setup loads this library, and the @payhook/* paths are not mapped there.
import { formatHost } from '../../config/src/postgres-url';
import { DatabaseHosts, NoDatabaseHostError, sessionRole, watchParameterStatuses } from './database-hosts';
import { isDatabaseUnavailable } from './pg-errors';

/**
 * The one way payhook opens PostgreSQL connections, a pool's or a client of its own: with a URL of
 * one host, node-postgres as it is; with a list of hosts, a Client that connects to the host
 * DatabaseHosts chooses and checks, on connect, that the host still fits (a failover may have
 * moved it since the walk).
 */

type ConnectCallback = (error: Error | null, client?: Client) => void;

/** Whether a failed connect says its host is gone (refused, unreachable, shutting down), not only full or slow. */
function isHostGone(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: string; message?: string };
  return isDatabaseUnavailable(error) && code !== '53300' && !/timeout/i.test(message ?? '');
}

/** A node-postgres Client class whose every connection goes to the host `hosts` chooses now. */
function hostListClient(hosts: DatabaseHosts): typeof Client {
  return class HostListClient extends Client {
    private readonly statuses = watchParameterStatuses(this);

    override connect(): Promise<Client>;
    override connect(callback: ConnectCallback): void;
    override connect(callback?: ConnectCallback): Promise<Client> | void {
      const connected = this.connectToChosenHost();
      if (!callback) return connected;
      connected.then(
        (client) => callback(null, client),
        (error: Error) => callback(error),
      );
    }

    override end(): Promise<void>;
    override end(callback: (error: Error) => void): void;
    override end(callback?: (error: Error) => void): Promise<void> | void {
      // Ending (the pool's idle timeout, a shutdown): not a connection held there any more.
      hosts.release(this);
      return callback ? super.end(callback) : super.end();
    }

    private async connectToChosenHost(): Promise<Client> {
      const host = await hosts.choose();
      // The pool's connect timeout ends a client by destroying its socket, and it may have while
      // the hosts were asked: connecting that socket now would undo it.
      if (this.connection.stream.destroyed) throw new Error('Connection terminated due to connection timeout');
      this.host = host.host;
      this.port = host.port;
      try {
        await super.connect();
      } catch (error) {
        // Refused, dropped or shutting down: the chosen host is gone, and the next connect walks. A host
        // that is only full (53300) or slow to answer is still the primary: this connect alone fails.
        if (isHostGone(error)) hosts.leave(host);
        throw error;
      }
      hosts.hold(this, host);
      let role;
      try {
        role = hosts.mode === 'read-write' ? await sessionRole(this, this.statuses) : 'primary';
      } catch (error) {
        // The pool never ends a client whose connect failed: end it here, or its socket stays open.
        await this.end().catch(() => undefined);
        throw error;
      }
      if (role !== 'primary') {
        // Chosen as the primary, it is one no more (a failover since): the next connect walks again.
        hosts.leave(host);
        await this.end().catch(() => undefined);
        throw new NoDatabaseHostError(`the PostgreSQL host ${formatHost(host)} no longer takes writes`);
      }
      return this;
    }
  };
}

const clientClasses = new WeakMap<DatabaseHosts, typeof Client>();

/** What a pool or client of `url` is given: the URL itself, or a host of its list and the Client that moves. */
export function connectionOptions(url: string): { url: string; Client?: typeof Client } {
  const hosts = DatabaseHosts.of(url);
  if (!hosts) return { url };
  let ClientClass = clientClasses.get(hosts);
  if (!ClientClass) clientClasses.set(hosts, (ClientClass = hostListClient(hosts)));
  return { url: hosts.urlFor(hosts.url.hosts[0]), Client: ClientClass };
}

/** A client of its own (not pooled) on `url`, to `connect()`. */
export function databaseClient(url: string, config: Omit<ClientConfig, 'connectionString'> = {}): Client {
  const { url: connectionString, Client: ClientClass = Client } = connectionOptions(url);
  return new ClientClass({ ...config, connectionString });
}
