#!/usr/bin/env node
// The `payhook` command (package.json "bin"; `npx payhook`, `npm run cli --`): the developer CLI of
// apps/cli (DESIGN.md §9). It runs the built CLI, and builds it first when the build is missing or
// older than its sources (a fresh clone after `npm install`, or a pull), as `npm start` does the apps.
'use strict';
const { spawnSync } = require('node:child_process');
const { existsSync, readdirSync, statSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const entry = join(root, 'dist/apps/cli/apps/cli/src/main.js');
const sources = [join(root, 'apps/cli/src'), join(root, 'libs/sdk/src')];

function newestSource(dir) {
  let newest = 0;
  for (const item of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, item.name);
    if (item.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (item.name.endsWith('.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

const stale = !existsSync(entry) || statSync(entry).mtimeMs < Math.max(...sources.filter(existsSync).map(newestSource));
if (stale) {
  process.stderr.write('payhook: building the CLI (once)…\n');
  const nest = join(root, 'node_modules/@nestjs/cli/bin/nest.js');
  const build = spawnSync(process.execPath, [nest, 'build', 'cli'], { cwd: root, stdio: ['ignore', 2, 2] });
  if (build.status !== 0) {
    process.stderr.write('payhook: building the CLI failed (see above); run `npm install` and try again.\n');
    process.exit(1);
  }
}

require(entry)
  .runCli(process.argv.slice(2))
  .then((code) => process.exit(code));
