// PostgreSQL clusters of a run's own (initdb, pg_ctl) in a temp directory on free ports, for the
// scripts that stop, restart or replicate a database (test:faults, bench/replica.mjs): the machine's
// own Postgres is never touched. Uses the installed server (PG_BIN, else `pg_config --bindir`); as
// root, the tools run as the user postgres (the server refuses root).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { freePort } from './harness.mjs';

const bin = process.env.PG_BIN ?? execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim();
const asRoot = process.getuid?.() === 0;

/** A PostgreSQL tool, as the postgres user when this runs as root. */
export function pgTool(tool, ...args) {
  const [command, argv] = asRoot
    ? ['runuser', ['-u', 'postgres', '--', join(bin, tool), ...args]]
    : [join(bin, tool), args];
  // From the temp directory: as the user postgres, a checkout under a 0700 folder (mktemp -d) is out of reach.
  execFileSync(command, argv, { cwd: os.tmpdir(), stdio: ['ignore', 'ignore', 'inherit'] });
}

/**
 * A temp directory for clusters; `node(name)` describes one in it on a free port, and the helpers
 * start and stop it as pg_ctl does. `remove()` stops what still runs and deletes the directory.
 */
export async function throwawayPostgres(label) {
  const dir = mkdtempSync(join(os.tmpdir(), `payhook-${label}-`));
  if (asRoot) execFileSync('chown', ['postgres', dir]);
  const serverOptions = (port) => `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`;
  const running = new Set();
  const start = (node) => {
    pgTool('pg_ctl', '-D', node.data, '-o', serverOptions(node.port), '-l', `${node.data}.log`, '-w', 'start');
    running.add(node);
  };
  const stop = (node, mode = 'fast') => {
    pgTool('pg_ctl', '-D', node.data, '-m', mode, '-w', 'stop');
    running.delete(node);
  };
  const node = async (name) => {
    const port = await freePort();
    return { data: join(dir, name), port, url: `postgres://postgres@127.0.0.1:${port}` };
  };
  return {
    dir,
    node,
    /** A new cluster (trust auth, no fsync at initdb), started. */
    async primary(name = 'primary') {
      const created = await node(name);
      pgTool('initdb', '-D', created.data, '-U', 'postgres', '--auth=trust', '--no-sync');
      start(created);
      return created;
    },
    start,
    stop,
    restart: (cluster) => {
      stop(cluster);
      start(cluster);
    },
    remove() {
      for (const cluster of [...running].reverse()) {
        try {
          stop(cluster, 'immediate');
        } catch (error) {
          console.error(`could not stop the cluster in ${cluster.data}: ${error}`);
        }
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
