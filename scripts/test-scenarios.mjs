#!/usr/bin/env node
// `npm run test:scenarios`: what needs real processes, after one build (scripts/build.mjs, skipped
// when nothing changed). The crash scripts mostly wait (a fixed rate of completions, a node down for
// 15 s), so they run beside the scenario specs instead of after them; each line says whose it is.
//   test:faults         crashes on a Postgres and a RabbitMQ node of its own
//   test:cluster        a broker cluster's node lost
//   test:failover       after test:faults: a pg_auto_failover primary killed, its standby promoted
//   the scenario specs  (jest.scenarios.config.js), then the webhook specs on the Postgres queue
import { spawn } from 'node:child_process';
import { buildIfStale, root } from './build.mjs';

const built = buildIfStale();
if (built !== 0) process.exit(built);

/** Each script's own block of ports for bench/harness.mjs's freePort: scripts running at once never pick the same one. */
let portBlocks = 0;

/** Runs an npm script with its lines prefixed; resolves to whether it passed. */
function run(script) {
  return new Promise((resolve) => {
    const since = Date.now();
    const env = { ...process.env, PAYHOOK_PORT_BLOCK: String(portBlocks++) };
    const child = spawn('npm', ['run', '-s', script], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    for (const stream of [child.stdout, child.stderr]) {
      let rest = '';
      stream.on('data', (chunk) => {
        const lines = (rest + chunk.toString()).split('\n');
        rest = lines.pop() ?? '';
        for (const line of lines) console.log(`[${script}] ${line}`);
      });
      stream.on('end', () => rest && console.log(`[${script}] ${rest}`));
    }
    child.on('close', (code, signal) => {
      console.log(
        `npm run ${script}: ${Math.round((Date.now() - since) / 1000)} s${code === 0 ? '' : ` (failed: ${signal ?? code})`}`,
      );
      resolve(code === 0);
    });
  });
}

const results = await Promise.all([
  // One after the other: each is shorter than the other two lanes, and together about as long.
  run('test:faults').then(async (passed) => (await run('test:failover')) && passed),
  run('test:cluster'),
  run('test:scenario-specs').then(async (passed) => (await run('test:postgres-queue')) && passed),
]);
process.exit(results.every(Boolean) ? 0 : 1);
