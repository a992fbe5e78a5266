import { connect } from 'node:net';
import { parsePostgresUrl } from './postgres-url';

/** A service a process needs before it boots, where it may answer, and the variable that points at it. */
export interface Dependency {
  name: string;
  variable: string;
  /** Nodes of one service (RabbitMQ may list a cluster's): one that answers is enough. */
  urls: string[];
  defaultPort: number;
}

/** Each host of a list is a node: one that answers is enough to start (the apps find the primary). */
export const postgresAt = (url: string): Dependency => {
  const parsed = parsePostgresUrl(url);
  return {
    name: 'PostgreSQL',
    variable: 'DATABASE_URL',
    urls: parsed.hosts.length > 1 ? parsed.hosts.map((host) => parsed.forHost(host)) : [url],
    defaultPort: 5432,
  };
};

export const rabbitmqAt = (urls: string[]): Dependency => ({
  name: 'RabbitMQ',
  variable: 'AMQP_URL',
  urls,
  defaultPort: 5672,
});

/**
 * Why no node of `dependency` can be reached over TCP within `timeoutMs`, in one line an operator
 * can act on; null when one answers. Names hosts and ports only: a URL may carry a password.
 */
export async function unreachable(dependency: Dependency, timeoutMs = 3_000): Promise<string | null> {
  const failures = await Promise.all(dependency.urls.map((url) => tcpFailure(url, dependency.defaultPort, timeoutMs)));
  if (failures.some((failure) => failure === null)) return null;
  return (
    `payhook cannot start: ${dependency.name} does not answer at ${failures.join(', ')}. ` +
    `Start it, or set ${dependency.variable} to one that answers.`
  );
}

/** null when something accepts a connection at the URL's host and port, else `host:port (reason)`. */
async function tcpFailure(href: string, defaultPort: number, timeoutMs: number): Promise<string | null> {
  const url = new URL(href);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1') || '127.0.0.1';
  const port = Number(url.port || defaultPort);
  const failure = await new Promise<string | null>((resolve) => {
    const socket = connect({ host, port });
    const done = (reason: string | null) => {
      socket.destroy();
      resolve(reason);
    };
    socket.setTimeout(timeoutMs, () => done(`no answer within ${timeoutMs} ms`));
    socket.once('connect', () => done(null));
    socket.once('error', (error: NodeJS.ErrnoException) => done(error.code ?? error.message));
  });
  return failure === null ? null : `${host}:${port} (${failure})`;
}

/** For main.ts: a dependency that does not answer ends the process with one line each, no stack trace. */
export async function exitUnlessReachable(dependencies: Dependency[]): Promise<void> {
  const reasons = (await Promise.all(dependencies.map((dependency) => unreachable(dependency)))).filter(
    (reason): reason is string => reason !== null,
  );
  if (reasons.length === 0) return;
  for (const reason of reasons) console.error(reason);
  process.exit(1);
}
