#!/usr/bin/env node
// The `payhook` command (package.json "bin"; `npx payhook`, `npm run cli --`): the developer CLI of
// apps/cli. It runs the built CLI, and builds it first when the build is missing or
// older than its sources (a fresh clone after `npm install`, or a pull), as `npm start` does the apps.
'use strict';
const { spawnSync } = require('node:child_process');
const { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { randomUUID } = require('node:crypto');

const root = join(__dirname, '..');
const entry = join(root, 'dist/apps/cli/src/main.js');
const sources = [join(root, 'apps/cli/src'), join(root, 'libs/sdk/src')];
// Two commands started at once on a fresh clone (listen, then trigger) must not build into one directory together.
const lock = join(root, 'dist/.payhook-cli-build');
// Written last by a build that succeeded (the newest source time it built), removed before one starts: the
// entry alone cannot tell a finished build from a half-written one. `npm run build` (scripts/build.mjs),
// which builds the CLI with everything else, writes the second.
const stamp = join(root, 'dist/.payhook-cli-built');
const fullBuildStamp = join(root, 'dist/.payhook-built');
const LOCK_WAIT_MS = 300_000;

/** The file's stat, or undefined once it is gone (another process may remove it at any moment). */
function statIfAny(path) {
  try {
    return statSync(path);
  } catch (error) {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  }
}

const SPEC = /\.(spec|integration-spec|e2e-spec|scenario-spec)\.ts$/;

/** The newest TypeScript a build compiles, as scripts/build.mjs counts it: no specs, no package's dist/. */
function newestSource(dir) {
  let newest = 0;
  for (const item of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, item.name);
    if (item.isDirectory()) {
      if (item.name !== 'dist' && item.name !== 'node_modules') newest = Math.max(newest, newestSource(path));
    } else if (item.name.endsWith('.ts') && !SPEC.test(item.name)) {
      newest = Math.max(newest, statIfAny(path)?.mtimeMs ?? 0);
    }
  }
  return newest;
}

const newestSources = () => Math.max(...sources.filter(existsSync).map(newestSource));

/** The newest source time a finished build recorded in `file`, or 0. */
function builtUpTo(file) {
  try {
    return Number(readFileSync(file, 'utf8')) || 0;
  } catch (error) {
    if (error.code === 'ENOENT') return 0;
    throw error;
  }
}

function isStale() {
  if (!existsSync(entry)) return true;
  return !(Math.max(builtUpTo(stamp), builtUpTo(fullBuildStamp)) >= newestSources());
}

/** Takes the lock: a token inside it, to release only our own, or undefined while another process holds it. */
function tryLock() {
  try {
    mkdirSync(lock);
    const token = join(lock, `${process.pid}-${randomUUID()}`);
    writeFileSync(token, '');
    return token;
  } catch (error) {
    if (error.code !== 'EEXIST') throw error;
    const held = statIfAny(lock);
    // A lock older than any build is one a killed build left behind.
    if (held && Date.now() - held.mtimeMs > LOCK_WAIT_MS) rmSync(lock, { recursive: true, force: true });
    return undefined;
  }
}

function build() {
  mkdirSync(join(root, 'dist'), { recursive: true });
  // Past the age at which a dead holder's lock is removed, so waiting ends in a build or a fresh one.
  const deadline = Date.now() + LOCK_WAIT_MS + 10_000;
  let owned;
  let waiting = false;
  while ((owned = tryLock()) === undefined) {
    if (!isStale()) return;
    if (Date.now() > deadline) {
      // Building without the lock would write into the other build's directory.
      process.stderr.write(`payhook: another build of the CLI still holds ${lock}; try again when it ends.\n`);
      process.exit(1);
    }
    if (!waiting) process.stderr.write('payhook: waiting for another build of the CLI…\n');
    waiting = true;
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
  }
  let failed = false;
  try {
    if (!isStale()) return;
    process.stderr.write('payhook: building the CLI (once)…\n');
    rmSync(stamp, { force: true });
    const newest = newestSources();
    const nest = join(root, 'node_modules/@nestjs/cli/bin/nest.js');
    const result = spawnSync(process.execPath, [nest, 'build', 'cli'], { cwd: root, stdio: ['ignore', 2, 2] });
    if (result.status === 0) {
      writeFileSync(stamp, String(newest));
    } else {
      // tsc writes its output even when it finds errors: leave nothing that looks like a good build.
      rmSync(join(root, 'dist/apps/cli'), { recursive: true, force: true });
      failed = true;
    }
  } finally {
    // Only our own: a build slower than LOCK_WAIT_MS may have had its lock taken over.
    if (existsSync(owned)) rmSync(lock, { recursive: true, force: true });
  }
  if (failed) {
    // After the finally: process.exit() would skip it and leave the lock to the next command.
    process.stderr.write('payhook: building the CLI failed (see above); run `npm install` and try again.\n');
    process.exit(1);
  }
}

if (isStale()) build();

require(entry)
  .runCli(process.argv.slice(2))
  .then((code) => process.exit(code));
