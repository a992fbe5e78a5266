// Three RabbitMQ nodes of one cluster on this machine, beside the system's own node, for
// `npm run test:cluster`. Each node is a foreground process of the installed RabbitMQ with a node
// name, AMQP and distribution ports, config file and data directory of its own under one temp
// directory; a fresh Erlang cookie there (the HOME of the nodes and of every rabbitmqctl call)
// keeps the system node out of reach: nothing here can touch it.
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

// The installed scripts themselves: Debian's wrappers in /usr/sbin switch to the rabbitmq user and its
// HOME, which would read the system node's cookie.
const BIN = '/usr/lib/rabbitmq/bin';
const run = promisify(execFile);
const START_TIMEOUT_MS = 120_000;

/**
 * Starts `size` nodes on AMQP ports `firstPort`, `firstPort + 1`, … and joins them to the first.
 * Returns the cluster's AMQP URLs and what the test does to its nodes; `destroy()` kills every node
 * and removes the directory, also after a failure.
 */
export async function startRabbitCluster({ size = 3, firstPort = 5681 } = {}) {
  const home = mkdtempSync(join(tmpdir(), 'payhook-cluster-'));
  writeFileSync(join(home, '.erlang.cookie'), randomBytes(20).toString('hex'), { mode: 0o400 });
  // The system's rabbitmq-env.conf names the system node; this cluster's nodes read an empty one.
  writeFileSync(join(home, 'rabbitmq-env.conf'), '');
  const tag = randomBytes(3).toString('hex');
  const nodes = Array.from({ length: size }, (_, index) => {
    const dir = join(home, `node${index + 1}`);
    mkdirSync(dir);
    const port = firstPort + index;
    writeFileSync(join(dir, 'rabbitmq.conf'), `listeners.tcp.default = 127.0.0.1:${port}\n`);
    writeFileSync(join(dir, 'enabled_plugins'), '[].\n');
    return {
      name: `payhook-cluster-${index + 1}-${tag}@localhost`,
      port,
      url: `amqp://guest:guest@127.0.0.1:${port}`,
      dir,
      process: undefined,
      env: {
        PATH: process.env.PATH,
        HOME: home,
        RABBITMQ_NODENAME: `payhook-cluster-${index + 1}-${tag}@localhost`,
        RABBITMQ_NODE_PORT: String(port),
        RABBITMQ_DIST_PORT: String(port + 20_000),
        RABBITMQ_CONFIG_FILE: join(dir, 'rabbitmq.conf'),
        RABBITMQ_ENABLED_PLUGINS_FILE: join(dir, 'enabled_plugins'),
        RABBITMQ_MNESIA_BASE: join(dir, 'data'),
        RABBITMQ_LOG_BASE: join(dir, 'log'),
        RABBITMQ_PID_FILE: join(dir, 'pid'),
        RABBITMQ_CONF_ENV_FILE: join(home, 'rabbitmq-env.conf'),
        // Reachable from this machine only, as the system node is.
        ERL_EPMD_ADDRESS: '127.0.0.1',
        ERL_FLAGS: '-kernel inet_dist_use_interface {127,0,0,1}',
        // A node or CLI call that crashes leaves its dump here, not in the repository.
        ERL_CRASH_DUMP: join(dir, 'erl_crash.dump'),
      },
    };
  });

  /** rabbitmqctl against `node`, with this cluster's cookie; resolves to its output. */
  const ctl = async (node, ...args) =>
    (
      await run(join(BIN, 'rabbitmqctl'), ['-q', '-n', node.name, ...args], {
        env: node.env,
        cwd: home,
        timeout: 120_000,
      })
    ).stdout;

  const start = async (node) => {
    const output = openSync(join(node.dir, 'console.log'), 'a');
    // A process group of its own: the start script, the Erlang VM and its helpers die together.
    node.process = spawn(join(BIN, 'rabbitmq-server'), [], {
      env: node.env,
      cwd: home,
      stdio: ['ignore', output, output],
      detached: true,
    });
    closeSync(output); // the node has its own copy
    node.process.on('error', () => undefined); // a start that fails shows as a node that never answers
    await untilAnswers(node);
  };

  /** await_startup fails at once while the node has not registered yet: ask again until it answers. */
  const untilAnswers = async (node) => {
    const deadline = Date.now() + START_TIMEOUT_MS;
    for (;;) {
      try {
        await ctl(node, 'await_startup', '--timeout', '10');
        return;
      } catch (error) {
        const exited = !node.process || node.process.exitCode !== null || node.process.signalCode !== null;
        if (exited || Date.now() > deadline) throw new Error(`${node.name} did not start: ${String(error)}`);
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }
  };

  /** kill -9 of the node: no goodbye to the cluster, its clients see their sockets drop. */
  const kill = (node) => {
    if (!node.process) return;
    try {
      process.kill(-node.process.pid, 'SIGKILL');
    } catch {
      // already gone
    }
    node.process = undefined;
  };

  /** Kills every node and removes the directory; after a failure, shows the end of each node's output first. */
  const destroy = ({ failed = false } = {}) => {
    for (const node of nodes) kill(node);
    if (failed) {
      for (const node of nodes) {
        try {
          const output = readFileSync(join(node.dir, 'console.log'), 'utf8').trimEnd().split('\n').slice(-20);
          console.error(`--- the end of ${node.name}'s output ---\n${output.join('\n')}`);
        } catch {
          // never started
        }
      }
    }
    rmSync(home, { recursive: true, force: true });
  };
  // However the run ends (a failure, Ctrl-C, an exit from anywhere), no node outlives it.
  process.once('exit', () => destroy());
  for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => process.exit(130));

  try {
    await Promise.all(nodes.map(start));
    for (const node of nodes.slice(1)) {
      await ctl(node, 'stop_app');
      await ctl(node, 'join_cluster', nodes[0].name);
      await ctl(node, 'start_app');
    }
  } catch (error) {
    destroy({ failed: true });
    throw error;
  }

  return {
    nodes,
    urls: nodes.map((node) => node.url),
    ctl,
    kill,
    /** Starts a killed node again on its own data: it rejoins the cluster by itself. */
    restart: (node) => start(node),
    /** The node that leads quorum queue `queue` of `vhost`, asked of a node that is up. */
    leaderOf: async (queue, vhost = '/', askNode = nodes.find((node) => node.process)) => {
      const lines = (await ctl(askNode, 'list_queues', '-p', vhost, '--no-table-headers', 'name', 'leader')).trim();
      const row = lines.split('\n').find((line) => line.split('\t')[0] === queue);
      const leader = row?.split('\t')[1];
      return nodes.find((node) => node.name === leader);
    },
    destroy,
  };
}
