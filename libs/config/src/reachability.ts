import { connect } from 'node:net';

/** A service a process needs before it boots, and the variable that points at it. */
export interface Dependency {
  name: string;
  variable: string;
  url: string;
  defaultPort: number;
}

export const postgresAt = (url: string): Dependency => ({
  name: 'PostgreSQL',
  variable: 'DATABASE_URL',
  url,
  defaultPort: 5432,
});

export const rabbitmqAt = (url: string): Dependency => ({
  name: 'RabbitMQ',
  variable: 'AMQP_URL',
  url,
  defaultPort: 5672,
});

/**
 * Why `dependency` cannot be reached over TCP within `timeoutMs`, in one line an operator can act
 * on; null when it answers. Names the host and port only: the URL may carry a password.
 */
export async function unreachable(dependency: Dependency, timeoutMs = 3_000): Promise<string | null> {
  const url = new URL(dependency.url);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1') || '127.0.0.1';
  const port = Number(url.port || dependency.defaultPort);
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
  if (failure === null) return null;
  return (
    `payhook cannot start: ${dependency.name} does not answer at ${host}:${port} (${failure}). ` +
    `Start it, or set ${dependency.variable} to one that answers.`
  );
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
