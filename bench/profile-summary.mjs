#!/usr/bin/env node
// Where an app's CPU time went, from the profiles `BENCH_CPU_PROF=dir npm run bench` leaves in dir:
// self time by package (node_modules package, node: module, our code as "payhook") and the top functions.
// Usage: node bench/profile-summary.mjs dir [top]
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const [dir, top = '12'] = process.argv.slice(2);
if (!dir) {
  console.error('usage: node bench/profile-summary.mjs <dir> [top]');
  process.exit(2);
}

function packageOf(url, functionName) {
  if (url.includes('node_modules/')) return url.replace(/.*node_modules\/((@[^/]+\/)?[^/]+).*/, '$1');
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/')[0]}`;
  return url ? 'payhook' : functionName; // (garbage collector), (idle), writev…: the runtime itself
}

function summarize(file) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const byPackage = new Map();
  const byFunction = new Map();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    const { functionName, url, lineNumber } = nodes.get(id).callFrame;
    total += delta;
    const pkg = packageOf(url, functionName);
    const fn = `${functionName || '(anonymous)'} (${pkg}${url ? `:${lineNumber + 1}` : ''})`;
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + delta);
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + delta);
  });
  const rows = (map) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, Number(top))
      .map(([name, time]) => `  ${((100 * time) / total).toFixed(1).padStart(5)}%  ${name}`)
      .join('\n');
  console.log(
    `${file} (${(total / 1e6).toFixed(1)} s sampled)\n by package:\n${rows(byPackage)}\n by function:\n${rows(byFunction)}\n`,
  );
}

for (const name of readdirSync(dir)
  .filter((file) => file.endsWith('.cpuprofile'))
  .sort())
  summarize(join(dir, name));
