/**
 * A postgres:// URL that may list several hosts, as libpq reads it:
 * `postgres://user:password@host1:5432,host2:5432/payhook?target_session_attrs=read-write`.
 * node-postgres takes one host, so the apps connect to one of them at a time (libs/persistence,
 * database-hosts.ts) with a one-host URL made from this one by `forHost`.
 */

/** Which host of a list a connection goes to (libpq's names; libpq has more, payhook needs these). */
export const TARGET_SESSION_ATTRS = ['read-write', 'any', 'prefer-standby'] as const;
export type TargetSessionAttrs = (typeof TARGET_SESSION_ATTRS)[number];

export interface PostgresHost {
  /** A name or an address; an IPv6 address without its brackets. */
  host: string;
  port: number;
}

export interface PostgresUrl {
  hosts: PostgresHost[];
  /** What the URL says, or `read-write`: with several hosts, the one to use is the one that takes writes. */
  targetSessionAttrs: TargetSessionAttrs;
  /** The same URL with one host, without target_session_attrs: what node-postgres is given. */
  forHost(host: PostgresHost): string;
  /** The same URL, every host kept, pointed at another database. */
  withDatabase(database: string): string;
}

/** Why a URL cannot be used, in words that name no password. */
export class PostgresUrlError extends Error {
  override name = 'PostgresUrlError';
}

const DEFAULT_PORT = 5432;
/** scheme://[userinfo@]hosts[/database][?query][#fragment]; userinfo ends at its last @. */
const URL_PARTS = /^(postgres(?:ql)?:\/\/)(?:([^/?#]*)@)?([^@/?#]*)(\/[^?#]*)?(\?[^#]*)?(#.*)?$/;
const BRACKETED_HOST = /^\[([0-9A-Fa-f:.]+)\](?::(.*))?$/;
const NAMED_HOST = /^([^:[\]]+)(?::(.*))?$/;

/** Parses a postgres:// URL of one host or several; throws PostgresUrlError saying what is wrong. */
export function parsePostgresUrl(url: string): PostgresUrl {
  const parts = /\s/.test(url) ? null : URL_PARTS.exec(url);
  if (!parts) throw new PostgresUrlError('must be a postgres:// URL');
  const [, scheme, userinfo, hostList, path = '', query = ''] = parts;
  // One empty host is node-postgres's default (localhost), as before host lists; in a list it is a slip.
  const hosts = hostList === '' ? [{ host: '', port: DEFAULT_PORT }] : hostList.split(',').map(parseHost);
  const params = new URLSearchParams(query);
  const given = params.get('target_session_attrs') ?? 'read-write';
  // With one host the attribute chooses nothing, and node-postgres ignored it before host lists.
  const attrs = hosts.length === 1 && !isTargetSessionAttrs(given) ? 'read-write' : given;
  if (!isTargetSessionAttrs(attrs)) {
    throw new PostgresUrlError(`has target_session_attrs=${attrs}: it must be ${TARGET_SESSION_ATTRS.join(', ')}`);
  }
  params.delete('target_session_attrs');
  const rest = params.size > 0 ? `?${params.toString()}` : '';
  const prefix = `${scheme}${userinfo === undefined ? '' : `${userinfo}@`}`;
  const build = (hostPart: string, database = path, search = rest) => `${prefix}${hostPart}${database}${search}`;
  const forHost = (host: PostgresHost) => build(formatHost(host));
  // One host goes to node-postgres as written, as before host lists.
  for (const host of hosts.length > 1 ? hosts : []) {
    try {
      new URL(forHost(host));
    } catch {
      throw new PostgresUrlError(`is not a URL at ${formatHost(host)}`);
    }
  }
  return {
    hosts,
    targetSessionAttrs: attrs,
    forHost,
    withDatabase: (database) => build(hosts.map(formatHost).join(','), `/${encodeURIComponent(database)}`, query),
  };
}

/** `host:port`, an IPv6 address in brackets: for URLs and for messages (it holds no secret). */
export function formatHost({ host, port }: PostgresHost): string {
  return `${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/**
 * Why `url` cannot be the apps' database URL (`variable` says which), or null. DATABASE_URL takes
 * writes, so with several hosts it must pick the one that accepts them.
 */
export function postgresUrlProblem(url: string, variable: 'DATABASE_URL' | 'DATABASE_READ_URL'): string | null {
  try {
    const parsed = parsePostgresUrl(url);
    if (variable === 'DATABASE_URL' && parsed.hosts.length > 1 && parsed.targetSessionAttrs !== 'read-write') {
      return `has target_session_attrs=${parsed.targetSessionAttrs}: with several hosts it must be read-write (the apps write there)`;
    }
    return null;
  } catch (error) {
    if (error instanceof PostgresUrlError) return error.message;
    throw error;
  }
}

/**
 * A host of the list. Its text is never quoted in a message: a password with an unescaped / ? or #
 * spills into the host part, and the message would show it.
 */
function parseHost(text: string, index: number): PostgresHost {
  const match = BRACKETED_HOST.exec(text) ?? NAMED_HOST.exec(text);
  if (!match) {
    throw new PostgresUrlError(
      text === '' ? 'lists an empty host' : `lists a host (number ${index + 1}) that is not host[:port]`,
    );
  }
  const [, host, port] = match;
  if (port === undefined || port === '') return { host, port: DEFAULT_PORT };
  const number = /^\d{1,5}$/.test(port) ? Number(port) : NaN;
  if (!(number >= 1 && number <= 65_535)) {
    throw new PostgresUrlError(
      `lists a port that is not 1-65535 (host number ${index + 1}; a password with / ? # @ must be percent-encoded)`,
    );
  }
  return { host, port: number };
}

function isTargetSessionAttrs(value: string): value is TargetSessionAttrs {
  return (TARGET_SESSION_ATTRS as readonly string[]).includes(value);
}
