import { Logger, type INestApplication } from '@nestjs/common';
import { clientKey } from '@payhook/auth';
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';

/** What one API process lets its clients hold open (docs/running.md, docs/scaling.md). */
export interface ConnectionLimits {
  /** A request's headers must have arrived within this (a trickle of header bytes does not extend it). */
  headersTimeoutMs: number;
  /** A whole request, body included, must have arrived within this. */
  requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this. */
  keepAliveTimeoutMs: number;
  /** Open connections of the whole process; more are closed on arrival. */
  maxConnections: number;
  /** Open connections of one client (an IPv4 address or an IPv6 /64); more are closed on arrival. */
  maxConnectionsPerClient: number;
}

/** File descriptors kept for everything but client sockets: database and broker pools, logs, files. */
export const RESERVED_FILES = 256;
/** The soft limit most systems start a process with, when the real one cannot be read. */
const ASSUMED_FILE_LIMIT = 1024;

/**
 * The process's soft RLIMIT_NOFILE from /proc/self/limits (Linux), or null where it cannot be read
 * or is unlimited.
 */
export function softFileLimit(limits = readProcLimits()): number | null {
  const line = /^Max open files\s+(\d+|unlimited)\s/m.exec(limits ?? '');
  return line && line[1] !== 'unlimited' ? Number(line[1]) : null;
}

function readProcLimits(): string | null {
  try {
    return readFileSync('/proc/self/limits', 'utf8');
  } catch {
    return null;
  }
}

/**
 * Connections allowed at once: below the file limit by RESERVED_FILES, so that a flood of sockets
 * can never take the descriptors the database pool, the broker and the logs need; MAX_CONNECTIONS
 * may set it lower.
 */
export function connectionCap(fileLimit: number | null, configured?: number): number {
  const belowFileLimit = Math.max(64, (fileLimit ?? ASSUMED_FILE_LIMIT) - RESERVED_FILES);
  return configured === undefined ? belowFileLimit : Math.min(configured, belowFileLimit);
}

/**
 * Which direct peers are proxies exempt from the per-client cap. Only a TRUST_PROXY list (addresses,
 * subnets, or the names loopback/linklocal/uniquelocal, which stand for subnets) says who the proxy
 * is; a hop count trusts whatever peer is nearest, i.e. every client that connects directly, so with
 * it (or without TRUST_PROXY) every peer is capped. `trustedAt` is Express's compiled "trust proxy".
 */
export function cappedPeerExemption(
  trustProxy: number | string[] | undefined,
  trustedAt: (address: string, hop: number) => boolean,
): (address: string) => boolean {
  return Array.isArray(trustProxy) ? (address) => trustedAt(address, 0) : () => false;
}

/**
 * The accept queue the API asks for; the kernel caps it at net.core.somaxconn (4096 on Linux since
 * 5.4). Node's default, 511, overflows when a burst of clients connects while the event loop is busy:
 * each handshake the kernel then drops costs its client a retransmission a second later or more.
 */
export const LISTEN_BACKLOG = 65_535;

/**
 * `app.listen` with LISTEN_BACKLOG (Nest hands the arguments after the port to Node's `server.listen`,
 * whose third is the backlog; its types stop at the host). No host: every interface, as `listen(port)`.
 */
export function listenWithBacklog(app: INestApplication, port: number, host?: string): Promise<unknown> {
  const listen = app.listen.bind(app) as (port: number, host: string | undefined, backlog: number) => Promise<unknown>;
  return listen(port, host, LISTEN_BACKLOG);
}

/**
 * Slowloris defence. Node's own timeouts are set on purpose (its defaults let a trickling request live
 * 60 s plus a 30 s check interval), the process takes no more connections than it has descriptors
 * for, and one client cannot take all of those: its connections past the per-client cap are closed
 * at once, so clients elsewhere are still served. Connections from a proxy named in TRUST_PROXY are
 * not counted per client (cappedPeerExemption): the proxy carries every client, and limits them
 * itself (docs/scaling.md).
 */
export function applyConnectionLimits(
  server: Server,
  limits: ConnectionLimits,
  isTrustedProxy: (address: string) => boolean,
): void {
  server.headersTimeout = limits.headersTimeoutMs;
  server.requestTimeout = limits.requestTimeoutMs;
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  // How often the two timeouts above are checked; read when the server starts listening.
  // (@types/node 20 lacks the property; Node has it since 18.)
  (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval = 1_000;
  server.maxConnections = limits.maxConnections;

  const openPerClient = new Map<string, number>();
  const capWarnings = new CapWarnings();
  server.on('connection', (socket) => {
    const address = socket.remoteAddress;
    if (address === undefined || isTrustedProxy(address)) return;
    const client = clientKey(address);
    const open = openPerClient.get(client) ?? 0;
    if (open >= limits.maxConnectionsPerClient) {
      socket.destroy();
      capWarnings.hit(client, limits.maxConnectionsPerClient);
      return;
    }
    openPerClient.set(client, open + 1);
    socket.once('close', () => {
      const left = (openPerClient.get(client) ?? 1) - 1;
      if (left > 0) openPerClient.set(client, left);
      else openPerClient.delete(client);
    });
  });
}

const logger = new Logger('ConnectionLimits');
/** A client that keeps hitting its cap is reported at most this often. */
export const CAP_WARNING_INTERVAL_MS = 60_000;

/**
 * One warning line when a client reaches MAX_CONNECTIONS_PER_CLIENT, at most once a minute per
 * client, so an operator sees it (and, behind a proxy without TRUST_PROXY, sees the whole site
 * capped) without a line per refused connection. The address is masked to its /24 (IPv6 clients
 * already are /64s): enough to recognise a network, not a person's address.
 */
class CapWarnings {
  /** Client → when it was last reported; in time order, so the stale ones are at the front. */
  private readonly lastWarned = new Map<string, number>();

  hit(client: string, cap: number, now = Date.now()): void {
    for (const [key, at] of this.lastWarned) {
      if (now - at < CAP_WARNING_INTERVAL_MS) break;
      this.lastWarned.delete(key);
    }
    if (this.lastWarned.has(client)) return;
    this.lastWarned.set(client, now);
    logger.warn(
      `client ${maskedClient(client)} holds ${cap} connections (MAX_CONNECTIONS_PER_CLIENT): further ones are ` +
        'closed on arrival. Behind a proxy that TRUST_PROXY does not name by address, every client is the proxy, ' +
        'so this caps the whole site.',
    );
  }
}

/** An IPv4 client as its /24; an IPv6 client key is already a /64; anything else is not shown. */
function maskedClient(client: string): string {
  const ipv4 = /^(\d+\.\d+\.\d+)\.\d+$/.exec(client);
  if (ipv4) return `${ipv4[1]}.0/24`;
  return client.endsWith('::/64') ? client : '(address unknown)';
}
