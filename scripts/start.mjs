#!/usr/bin/env node
// Builds what is missing or stale, then runs the apps: both by default, or the one named.
//   npm start                      both apps in one terminal (for a newcomer)
//   npm run start:api              payments-api only
//   npm run start:dispatcher       webhook-dispatcher only (scale it by starting more)
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const APPS = ['payments-api', 'webhook-dispatcher'];
const selected = process.argv[2] ? [process.argv[2]] : APPS;
if (selected.some((app) => !APPS.includes(app))) {
  console.error(`Unknown app "${process.argv[2]}": use one of ${APPS.join(', ')}`);
  process.exit(2);
}

const entryOf = (app) => join(root, 'dist/apps', app, 'apps', app, 'src/main.js');

function newestSource(dirs) {
  let newest = 0;
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
    }
  };
  dirs.forEach(walk);
  return newest;
}

for (const app of selected) {
  const entry = entryOf(app);
  const stale =
    !existsSync(entry) || statSync(entry).mtimeMs < newestSource([join(root, 'apps', app), join(root, 'libs')]);
  if (stale) {
    console.log(`building ${app}…`);
    const build = spawnSync('npx', ['nest', 'build', app], { cwd: root, stdio: 'inherit' });
    if (build.status !== 0) process.exit(build.status ?? 1);
  }
}

const children = selected.map((app) => {
  const child = spawn(process.execPath, ['--enable-source-maps', entryOf(app)], { cwd: root, stdio: 'inherit' });
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
