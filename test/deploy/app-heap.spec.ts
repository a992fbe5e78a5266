import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '../..');
const node = (args: string[], nodeOptions = '') =>
  execFileSync(process.execPath, args, { cwd: root, env: { ...process.env, NODE_OPTIONS: nodeOptions } })
    .toString()
    .trim();

/** NODE_OPTIONS as `npm start` and the bench give them to an app, over an operator's own. */
const appNodeOptions = (operators: string) =>
  node([
    '--input-type=module',
    '-e',
    `import { withAppHeap } from './scripts/app-node-flags.mjs';
     console.log(withAppHeap({ NODE_OPTIONS: ${JSON.stringify(operators)} }).NODE_OPTIONS)`,
  ]);

/** The heap limit V8 takes from these NODE_OPTIONS, in MiB. */
const heapLimitMiB = (nodeOptions: string) =>
  Number(node(['-e', "console.log(require('v8').getHeapStatistics().heap_size_limit)"], nodeOptions)) / 2 ** 20;

describe('the apps’ heap size (scripts/app-node-flags.mjs)', () => {
  it('is what the Dockerfile gives the apps in NODE_OPTIONS', () => {
    expect(readFileSync(join(root, 'Dockerfile'), 'utf8')).toContain(`NODE_OPTIONS=${appNodeOptions('')} \\`);
  });

  it('caps the heap well below what V8 takes on this machine by itself, unless the operator says otherwise', () => {
    const capped = heapLimitMiB(appNodeOptions(''));
    expect(capped).toBeLessThan(400);
    expect(heapLimitMiB('')).toBeGreaterThan(capped);
    expect(heapLimitMiB(appNodeOptions('--max-old-space-size=1024'))).toBeGreaterThan(1000);
  });
});
