// A pg_auto_failover formation of a run's own for `npm run test:failover`: a monitor, a primary and a
// synchronous standby, each a `pg_autoctl` process (keeper and Postgres) with its data, sockets,
// configuration and state in one temp directory on free ports. The machine's own cluster is never
// touched: nothing here listens on 5432 or writes outside the directory. Debian's package
// postgresql-<version>-auto-failover provides pg_autoctl and the monitor's extension. As root, every
// pg_autoctl and Postgres runs as the user postgres (the server refuses root).
import { execFile, execFileSync, spawn } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort, sleep } from './harness.mjs';

const bin = process.env.PG_BIN ?? execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim();
const runFile = promisify(execFile);
const asRoot = process.getuid?.() === 0;
const postgresUser = asRoot
  ? {
      uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' })),
      gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' })),
    }
  : {};

/**
 * How fast the monitor calls a node gone and promotes its standby. pg_auto_failover's defaults
 * (a check every 5 s, unhealthy after 20 s, 30 s for the old primary to demote itself) make a failover
 * take about 30 to 50 s; these make it a few seconds, so the run measures payhook, not the wait.
 */
const QUICK_FAILOVER = {
  'pgautofailover.health_check_period': 1000,
  'pgautofailover.health_check_timeout': 1000,
  'pgautofailover.health_check_max_retries': 1,
  'pgautofailover.health_check_retry_delay': 500,
  'pgautofailover.node_considered_unhealthy_timeout': 2000,
  'pgautofailover.primary_demote_timeout': 3000,
  'pgautofailover.startup_grace_period': 2000,
};
const READY_TIMEOUT_MS = 90_000;

/** The pids of every process under `pid` (children, theirs, …), from /proc. */
function descendants(pid) {
  const children = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The parent pid is the 2nd field after the command, which is in parentheses (and may hold some).
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // ended meanwhile
    }
  }
  const found = [];
  const visit = (parent) => {
    for (const child of children.get(parent) ?? []) {
      found.push(child);
      visit(child);
    }
  };
  visit(pid);
  return found;
}

/** Polls `check` (truthy ends it) every `everyMs` until `timeoutMs`; throws `what` after that. */
export async function until(what, check, { timeoutMs = READY_TIMEOUT_MS, everyMs = 250 } = {}) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const result = await check().catch(() => undefined);
    if (result) return result;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
    await sleep(everyMs);
  }
}

/** One query on a fresh connection (a failover test must not keep one to a host it kills). */
export async function queryOnce(url, text, values) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return (await client.query(text, values)).rows;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Creates the formation and starts it: the monitor, then `node1` (the primary) and `node2` (its
 * synchronous standby). Resolves once the monitor reports them primary and secondary and the
 * primary's commits wait for the standby.
 */
export async function startAutoFailover({ label = 'failover' } = {}) {
  try {
    execFileSync('pg_autoctl', ['--version'], { stdio: 'ignore' });
  } catch {
    const major = execFileSync(join(bin, 'pg_config'), ['--version'], { encoding: 'utf8' }).match(/\d+/)?.[0];
    throw new Error(`pg_autoctl is not installed: apt-get install postgresql-${major}-auto-failover`);
  }
  const dir = mkdtempSync(join(tmpdir(), `payhook-${label}-`));
  if (asRoot) execFileSync('chown', ['postgres', dir]);
  // pg_autoctl keeps its configuration, state and pid files under the XDG directories: here, not in
  // the postgres user's HOME. PGHOST is where the servers put their sockets and pg_autoctl looks.
  const env = {
    PATH: `${bin}:${process.env.PATH}`,
    HOME: dir,
    XDG_CONFIG_HOME: join(dir, 'config'),
    XDG_DATA_HOME: join(dir, 'data'),
    XDG_RUNTIME_DIR: join(dir, 'run'),
    PGHOST: dir,
    LANG: 'C.UTF-8',
  };
  const options = { cwd: dir, env, ...postgresUser };
  const running = new Map(); // name -> child process (its own process group)

  /** pg_autoctl or a Postgres tool run to its end. */
  const tool = async (command, ...args) => {
    try {
      return (await runFile(command, args, { ...options, maxBuffer: 16 * 2 ** 20 })).stdout;
    } catch (error) {
      throw new Error(`${command} ${args.join(' ')} failed: ${error.stderr || error.message}`);
    }
  };
  /** A cluster initialised as the formation's nodes expect: sockets in the directory, loopback only. */
  const initdb = async (data) => {
    await tool(join(bin, 'initdb'), '-D', data, '-U', 'postgres', '--auth=trust', '--no-sync');
    await tool(
      'sh',
      '-c',
      `printf "unix_socket_directories = '%s'\\nlisten_addresses = '127.0.0.1'\\n" "$0" >> "$1"`,
      dir,
      join(data, 'postgresql.conf'),
    );
  };
  /** A long-running pg_autoctl in a process group of its own, so that a kill takes Postgres with it. */
  const service = (name, args) => {
    const log = openSync(join(dir, `${name}.log`), 'a');
    const child = spawn('pg_autoctl', args, { ...options, detached: true, stdio: ['ignore', log, log] });
    closeSync(log);
    child.on('error', () => undefined);
    running.set(name, child);
    return child;
  };
  /**
   * `signal` to a service and everything under it. Postgres puts each child (backends, background
   * workers, the logger) in a session of its own, so a signal to the process group reaches only
   * pg_autoctl and the postmaster: the tree is read from /proc first.
   */
  const signalTree = (child, signal) => {
    for (const pid of [child.pid, ...descendants(child.pid)]) {
      try {
        process.kill(pid, signal);
      } catch {
        // already gone
      }
    }
  };
  const killGroup = (child) => signalTree(child, 'SIGKILL');

  const monitorPort = await freePort();
  const monitorData = join(dir, 'monitor');
  const monitorAdmin = `postgres://postgres@127.0.0.1:${monitorPort}/pg_auto_failover`;
  const monitorUri = `postgres://autoctl_node@127.0.0.1:${monitorPort}/pg_auto_failover?sslmode=disable`;
  const nodes = [];
  for (const name of ['node1', 'node2']) nodes.push({ name, port: await freePort(), data: join(dir, name) });
  const pgctl = join(bin, 'pg_ctl');
  const common = ['--hostname', '127.0.0.1', '--listen', '127.0.0.1', '--auth', 'trust', '--no-ssl', '--pgctl', pgctl];

  const formation = {
    dir,
    nodes,
    /** The monitor's own connection string for `pg_autoctl show uri --formation default`: several hosts. */
    async formationUri() {
      const out = await tool('pg_autoctl', 'show', 'uri', '--formation', 'default', '--pgdata', monitorData);
      return out.trim();
    },
    /** Each node's reported and assigned state, from the monitor. */
    async states() {
      const rows = await queryOnce(
        monitorAdmin,
        'SELECT nodename AS name, reportedstate AS reported, goalstate AS goal FROM pgautofailover.node ORDER BY nodeid',
      );
      return Object.fromEntries(rows.map((row) => [row.name, `${row.reported}/${row.goal}`]));
    },
    /** Resolves once one node is primary and the other secondary, its commits waiting for the standby. */
    async steady() {
      return until('a primary with a synchronous standby', async () => {
        const states = await formation.states();
        const primary = nodes.find((node) => states[node.name] === 'primary/primary');
        if (!primary || !nodes.every((node) => node === primary || states[node.name] === 'secondary/secondary')) {
          return undefined;
        }
        const [sync] = await queryOnce(
          formation.url(primary, 'postgres'),
          "SELECT current_setting('synchronous_standby_names') <> '' AS named, " +
            "current_setting('synchronous_commit') AS commit, " +
            "count(*) FILTER (WHERE sync_state IN ('sync', 'quorum')) AS synchronous FROM pg_stat_replication",
        );
        return sync.named && sync.commit === 'on' && Number(sync.synchronous) === 1 ? primary : undefined;
      });
    },
    url: (node, database) => `postgres://postgres@127.0.0.1:${node.port}/${database}`,
    /** Whether `node` takes writes now: out of recovery and no longer read-only (pg_autoctl lifts that last). */
    async takesWrites(node) {
      const [row] = await queryOnce(
        formation.url(node, 'postgres'),
        "SELECT NOT pg_is_in_recovery() AND current_setting('default_transaction_read_only') = 'off' AS writes",
      );
      return row.writes;
    },
    /** kill -9 of the node's keeper and its Postgres, every process of it at once: its machine's crash. */
    kill(node) {
      const child = running.get(node.name);
      running.delete(node.name);
      if (child) killGroup(child);
    },
    /**
     * SIGSTOP to the node's keeper and Postgres: a host that stops answering without closing a
     * connection (the kernel still accepts new ones, nothing answers on them). kill() ends it.
     */
    freeze(node) {
      signalTree(running.get(node.name), 'SIGSTOP');
    },
    /** Starts a node again that was killed: its keeper asks the monitor, and it rejoins as a standby. */
    rejoin(node) {
      service(node.name, ['run', '--pgdata', node.data]);
    },
    /** `pg_autoctl perform switchover`: the monitor moves the primary to the standby, gracefully. */
    switchover: () => tool('pg_autoctl', 'perform', 'switchover', '--pgdata', monitorData, '--wait', '60'),
    /** Kills every process of the formation and deletes the directory; after a failure, shows each log's end first. */
    destroy({ failed = false } = {}) {
      for (const child of running.values()) killGroup(child);
      running.clear();
      if (failed) {
        for (const name of ['monitor', ...nodes.map((node) => node.name)]) {
          if (!existsSync(join(dir, `${name}.log`))) continue;
          const lines = readFileSync(join(dir, `${name}.log`), 'utf8')
            .trimEnd()
            .split('\n')
            .slice(-25);
          console.error(`--- the end of ${name}'s pg_autoctl log ---\n${lines.join('\n')}`);
        }
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };

  try {
    await initdb(monitorData);
    await tool('pg_autoctl', 'create', 'monitor', '--pgdata', monitorData, '--pgport', String(monitorPort), ...common);
    service('monitor', ['run', '--pgdata', monitorData]);
    await until('the monitor', () => queryOnce(monitorAdmin, 'SELECT 1'));
    for (const [name, value] of Object.entries(QUICK_FAILOVER)) {
      await queryOnce(monitorAdmin, `ALTER SYSTEM SET ${name} = ${value}`);
    }
    await queryOnce(monitorAdmin, 'SELECT pg_reload_conf()');
    for (const node of nodes) {
      // The standby's data comes from the primary (pg_basebackup), its settings too.
      if (node === nodes[0]) await initdb(node.data);
      service(node.name, [
        'create',
        'postgres',
        '--pgdata',
        node.data,
        '--pgport',
        String(node.port),
        '--name',
        node.name,
        '--monitor',
        monitorUri,
        ...common,
        '--run',
      ]);
      if (node === nodes[0]) {
        await until('node1 as the primary', async () => (await formation.states()).node1 === 'single/single');
      }
    }
    await formation.steady();
  } catch (error) {
    formation.destroy({ failed: true });
    throw error;
  }
  return formation;
}
