import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * PostgreSQL clusters of a spec's own (initdb, pg_ctl, pg_basebackup) in a temp directory on free
 * ports, for specs that stop, promote or replicate a database: the machine's own Postgres is never
 * touched. As bench/throwaway-postgres.mjs does for the scripts: the installed server (PG_BIN, else
 * `pg_config --bindir`); as root, the tools run as the user postgres (the server refuses root).
 */
export interface Cluster {
  name: string;
  data: string;
  port: number;
  /** postgres://postgres@127.0.0.1:<port> (trust authentication), without a database. */
  url: string;
}

export interface ThrowawayClusters {
  /** A new cluster (trust authentication), started. */
  primary(name: string): Promise<Cluster>;
  /** A streaming hot standby of `primary` (pg_basebackup -R), started. */
  standby(name: string, primary: Cluster): Promise<Cluster>;
  /** `pg_ctl stop`; `immediate` is a crash (no shutdown checkpoint, clients cut off). */
  stop(cluster: Cluster, mode?: 'fast' | 'immediate'): void;
  /** `pg_ctl promote`: the standby leaves recovery and takes writes. */
  promote(cluster: Cluster): void;
  /**
   * SIGSTOP to the server and every process of it: a host that stops answering and closes nothing
   * (a frozen machine). `resume` (SIGCONT) undoes it; `remove` needs it undone.
   */
  pause(cluster: Cluster): void;
  resume(cluster: Cluster): void;
  /** Stops what still runs and deletes the directory. */
  remove(): void;
}

const bin = process.env.PG_BIN ?? execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim();
const asRoot = process.getuid?.() === 0;

function pgTool(tool: string, ...args: string[]): void {
  const [command, argv] = asRoot
    ? ['runuser', ['-u', 'postgres', '--', join(bin, tool), ...args]]
    : [join(bin, tool), args];
  // From the temp directory: as the user postgres, a checkout under a 0700 folder is out of reach.
  execFileSync(command, argv, { cwd: tmpdir(), stdio: ['ignore', 'ignore', 'pipe'] });
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** `signal` to a cluster's postmaster (its postmaster.pid) and each of its children (from /proc). */
function signalServer(cluster: Cluster, signal: NodeJS.Signals): void {
  const postmaster = Number(readFileSync(join(cluster.data, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const children = readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        // The parent pid: the 2nd field after the command, which is in parentheses.
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === postmaster;
      } catch {
        return false; // ended meanwhile
      }
    })
    .map(Number);
  process.kill(postmaster, signal);
  for (const pid of children) {
    try {
      process.kill(pid, signal);
    } catch (error) {
      // A child that ended since /proc was read (a backend whose client left) has nothing to pause.
      if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
    }
  }
}

export function throwawayClusters(label: string): ThrowawayClusters {
  const dir = mkdtempSync(join(tmpdir(), `payhook-${label}-`));
  if (asRoot) execFileSync('chown', ['postgres', dir]);
  const running = new Set<Cluster>();
  const describe = async (name: string): Promise<Cluster> => {
    const port = await freePort();
    return { name, data: join(dir, name), port, url: `postgres://postgres@127.0.0.1:${port}` };
  };
  const start = (cluster: Cluster) => {
    const options = `-p ${cluster.port} -k ${dir} -c listen_addresses=127.0.0.1`;
    pgTool('pg_ctl', '-D', cluster.data, '-o', options, '-l', `${cluster.data}.log`, '-w', 'start');
    running.add(cluster);
  };
  const stop = (cluster: Cluster, mode: 'fast' | 'immediate' = 'fast') => {
    pgTool('pg_ctl', '-D', cluster.data, '-m', mode, '-w', 'stop');
    running.delete(cluster);
  };
  return {
    async primary(name) {
      const cluster = await describe(name);
      pgTool('initdb', '-D', cluster.data, '-U', 'postgres', '--auth=trust', '--no-sync');
      start(cluster);
      return cluster;
    },
    async standby(name, primary) {
      const cluster = await describe(name);
      pgTool(
        'pg_basebackup',
        ...['-h', '127.0.0.1', '-p', String(primary.port), '-U', 'postgres'],
        ...['-D', cluster.data, '-R', '-X', 'stream'],
      );
      start(cluster);
      return cluster;
    },
    stop,
    promote(cluster) {
      pgTool('pg_ctl', '-D', cluster.data, '-w', 'promote');
    },
    pause: (cluster) => signalServer(cluster, 'SIGSTOP'),
    resume: (cluster) => signalServer(cluster, 'SIGCONT'),
    remove() {
      for (const cluster of [...running].reverse()) {
        try {
          stop(cluster, 'immediate');
        } catch (error) {
          console.error(`could not stop the cluster in ${cluster.data}: ${String(error)}`);
        }
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
