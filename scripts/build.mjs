#!/usr/bin/env node
// `npm run build`: every app (payments-api, webhook-dispatcher, local mode, the CLI) and the example
// merchant in one TypeScript pass (tsconfig.dist.json) into dist/, entries at dist/<app folder>/src/main.js.
// One pass compiles the shared libs once instead of once per app. `--if-stale` builds only when a
// source is newer than the last build (npm start, the scenario tests, test:faults and test:cluster).
// dist/ is never emptied first: processes started from it keep running while it is rebuilt.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export const root = join(import.meta.dirname, '..');
/** Written last by a build that succeeded: the newest source time it built. */
const stamp = join(root, 'dist/.payhook-built');
const SOURCE_DIRS = ['apps', 'libs', 'examples'].map((dir) => join(root, dir));
const SPEC = /\.(spec|integration-spec|e2e-spec|scenario-spec)\.ts$/;

/** The built entry point of an app folder: 'apps/payments-api', 'examples/merchant'. */
export const entryOf = (folder) => join(root, 'dist', folder, 'src/main.js');

/** The newest modification time of the TypeScript the build compiles (not specs, not a package's dist/). */
function newestSource(dirs = SOURCE_DIRS) {
  let newest = 0;
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'dist' && entry.name !== 'node_modules') walk(path);
      } else if (entry.name.endsWith('.ts') && !SPEC.test(entry.name)) {
        newest = Math.max(newest, statSync(path).mtimeMs);
      }
    }
  };
  dirs.filter(existsSync).forEach(walk);
  return newest;
}

/** The newest source time the last successful build covered, or 0. */
function builtUpTo() {
  try {
    return Number(readFileSync(stamp, 'utf8')) || 0;
  } catch {
    return 0;
  }
}

const isStale = () => builtUpTo() < newestSource();

/** Builds everything; returns the exit status (0 when it built). */
function build() {
  const newest = newestSource();
  mkdirSync(join(root, 'dist'), { recursive: true });
  rmSync(stamp, { force: true });
  // The Nest CLI's tsc builder (it rewrites the @payhook/* paths); the project named only picks the CLI's
  // defaults, tsconfig.dist.json says what is compiled.
  const nest = join(root, 'node_modules/@nestjs/cli/bin/nest.js');
  const result = spawnSync(process.execPath, [nest, 'build', 'payments-api', '--path', 'tsconfig.dist.json'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status === 0) writeFileSync(stamp, String(newest));
  return result.status ?? 1;
}

/** Builds when a source is newer than the last build; returns the exit status. */
export function buildIfStale() {
  if (!isStale()) return 0;
  console.log('building payhook (dist/)…');
  return build();
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.exit(process.argv.includes('--if-stale') ? buildIfStale() : build());
}
