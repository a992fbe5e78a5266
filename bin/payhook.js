#!/usr/bin/env node
// The `payhook` command (package.json "bin"; `npx payhook`, `npm run cli --`): the developer CLI of
// apps/cli (DESIGN.md §9). It runs the built CLI, and builds it first when the build is missing or
// older than its sources (a fresh clone after `npm install`, or a pull), as `npm start` does the apps.
'use strict';
const { spawnSync } = require('node:child_process');
const { existsSync, mkdirSync, readdirSync, rmSync, statSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const entry = join(root, 'dist/apps/cli/apps/cli/src/main.js');
const sources = [join(root, 'apps/cli/src'), join(root, 'libs/sdk/src')];
// Two commands started at once on a fresh clone (listen, then trigger) must not build into one directory together.
const lock = join(root, 'dist/.payhook-cli-build');
const LOCK_WAIT_MS = 300_000;

function newestSource(dir) {
  let newest = 0;
  for (const item of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, item.name);
    if (item.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (item.name.endsWith('.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

const isStale = () =>
  !existsSync(entry) || statSync(entry).mtimeMs < Math.max(...sources.filter(existsSync).map(newestSource));

function build() {
  mkdirSync(join(root, 'dist'), { recursive: true });
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      // A lock older than any build is one a killed build left behind.
      if (Date.now() - statSync(lock).mtimeMs > LOCK_WAIT_MS) rmSync(lock, { recursive: true, force: true });
      if (Date.now() > deadline) break;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
      if (!existsSync(lock) && !isStale()) return;
    }
  }
  try {
    if (!isStale()) return;
    process.stderr.write('payhook: building the CLI (once)…\n');
    const nest = join(root, 'node_modules/@nestjs/cli/bin/nest.js');
    const result = spawnSync(process.execPath, [nest, 'build', 'cli'], { cwd: root, stdio: ['ignore', 2, 2] });
    if (result.status !== 0) {
      // tsc writes its output even when it finds errors: leave nothing that looks like a good build.
      rmSync(join(root, 'dist/apps/cli'), { recursive: true, force: true });
      process.stderr.write('payhook: building the CLI failed (see above); run `npm install` and try again.\n');
      process.exit(1);
    }
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

if (isStale()) build();

require(entry)
  .runCli(process.argv.slice(2))
  .then((code) => process.exit(code));
