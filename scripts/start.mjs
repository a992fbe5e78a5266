#!/usr/bin/env node
// Builds what is missing or stale, then runs the apps: both by default, or the one named.
//   npm start                      both apps against PostgreSQL and RabbitMQ, or local mode (below)
//   npm run start:api              payments-api only
//   npm run start:dispatcher       webhook-dispatcher only (scale it by starting more)
// Local mode (ADR 0009): `npm start` on a machine with Node alone runs both apps in
// one process on an embedded Postgres (apps/local), when NODE_ENV is not production, neither
// DATABASE_URL nor AMQP_URL is set and nothing answers at their defaults, or when PAYHOOK_EMBEDDED=1.
import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { join, resolve } from 'node:path';
import { withAppHeap } from './app-node-flags.mjs';
import { buildIfStale, entryOf } from './build.mjs';

const root = join(import.meta.dirname, '..');
const APPS = ['payments-api', 'webhook-dispatcher'];
if (process.argv[2] && !APPS.includes(process.argv[2])) {
  console.error(`Unknown app "${process.argv[2]}": use one of ${APPS.join(', ')}`);
  process.exit(2);
}

/** Whether something accepts a TCP connection at 127.0.0.1:port within a second. */
function answers(port) {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    const done = (answered) => {
      socket.destroy();
      resolve(answered);
    };
    socket.setTimeout(1_000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

async function localMode() {
  if (process.env.PAYHOOK_EMBEDDED === '1') return true;
  if (process.env.NODE_ENV === 'production' || process.env.DATABASE_URL || process.env.AMQP_URL) return false;
  const [postgres, rabbitmq] = await Promise.all([answers(5432), answers(5672)]);
  return !postgres && !rabbitmq;
}

const selected = process.argv[2] ? [process.argv[2]] : (await localMode()) ? ['local'] : APPS;
if (selected[0] === 'local') {
  // The first line a newcomer reads: which mode, where the data lives, and the way to real services.
  process.env.PAYHOOK_DATA_DIR = resolve(process.env.PAYHOOK_DATA_DIR || '.payhook');
  console.log(
    `payhook: local mode: both apps in one process on an embedded PostgreSQL with its data in ` +
      `${process.env.PAYHOOK_DATA_DIR} (PAYHOOK_DATA_DIR; delete it to start over), webhooks queued in that ` +
      `database, no RabbitMQ. For production-like runs set DATABASE_URL and AMQP_URL to your PostgreSQL ` +
      `and RabbitMQ (docs/running.md).`,
  );
}

// One build for every app (scripts/build.mjs), only when a source is newer than the last one.
const built = buildIfStale();
if (built !== 0) process.exit(built);

const children = selected.map((app) => {
  // Local mode runs an embedded Postgres beside both apps in its process: not sized like one app.
  const env = app === 'local' ? process.env : withAppHeap(process.env);
  const child = spawn(process.execPath, ['--enable-source-maps', entryOf(`apps/${app}`)], {
    cwd: root,
    stdio: 'inherit',
    env,
  });
  child.on('exit', (code, signal) => {
    // One app stopping stops the others: a half-running stack is worse than a clear stop.
    for (const other of children) if (other !== child && other.exitCode === null) other.kill('SIGTERM');
    process.exitCode = code ?? (signal ? 1 : 0);
  });
  return child;
});

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => children.forEach((child) => child.exitCode === null && child.kill(signal)));
}
