#!/usr/bin/env node
// `npm run test:timings [count]`: the slowest spec files of the last runs, from what Jest's timings
// reporter wrote to test-artifacts/ (test/support/timings-reporter.js), per run and overall.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = join(import.meta.dirname, '../test-artifacts');
const count = Number(process.argv[2] ?? 20);
const runs = existsSync(dir)
  ? readdirSync(dir)
      .filter((name) => /^timings-.*\.json$/.test(name))
      .map((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')))
  : [];
if (runs.length === 0) {
  console.error('No timings yet: run the tests first (npm test, npm run test:scenarios).');
  process.exit(1);
}
for (const run of runs) {
  const total = run.files.reduce((sum, file) => sum + file.seconds, 0);
  console.log(
    `${run.tiers}${run.webhookQueue === 'postgres' ? ' (Postgres queue)' : ''}: ${run.files.length} files, ` +
      `${run.wallSeconds.toFixed(0)} s wall, ${total.toFixed(0)} s in spec files, started ${run.startedAt}`,
  );
}
const all = runs.flatMap((run) => run.files).sort((a, b) => b.seconds - a.seconds);
console.log(`\nThe ${Math.min(count, all.length)} slowest files:`);
for (const file of all.slice(0, count)) {
  console.log(
    `${file.seconds.toFixed(1).padStart(7)} s  ${file.tier.padEnd(11)} ${file.file}${file.failed ? '  (failed)' : ''}`,
  );
}
