// Builds the merchant SDK package in libs/sdk/dist (run by `npm run build` or `npm pack` in libs/sdk):
//   1. a clean dist/, so a renamed module never ships its stale old file;
//   2. tsc with libs/sdk/tsconfig.build.json: CommonJS JavaScript and .d.ts declarations;
//   3. dist/index.mjs, the `import` entry: it re-exports the CommonJS module's names, so `import` and
//      `require` share one copy of the code (an `instanceof WebhookVerificationError` holds across both).
import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const sdk = join(root, 'libs/sdk');
const dist = join(sdk, 'dist');
const require = createRequire(import.meta.url);

rmSync(dist, { recursive: true, force: true });

const tsc = spawnSync(
  process.execPath,
  [require.resolve('typescript/bin/tsc'), '-p', join(sdk, 'tsconfig.build.json')],
  { stdio: 'inherit' },
);
if (tsc.status !== 0) process.exit(tsc.status ?? 1);

const names = Object.keys(require(join(dist, 'index.js'))).filter((name) => name !== '__esModule');
writeFileSync(
  join(dist, 'index.mjs'),
  `// The ES module entry of @payhook/sdk: the CommonJS build's exports by name (scripts/build-sdk.mjs).\n` +
    `import sdk from './index.js';\n\n` +
    `export const {\n${names.map((name) => `  ${name},\n`).join('')}} = sdk;\n`,
);
