import { spawn } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * bin/payhook.js builds the CLI under a lock before running it. Here it runs in a scratch copy of the
 * repository whose `nest build` is a stand-in: it logs each build, empties the output first (as a
 * build with deleteOutDir would) and writes the entry before the module it needs, slowly, so a
 * command that ran a half-written build would fail.
 */
describe('bin/payhook.js, building the CLI', () => {
  let root: string;
  const FAKE_NEST = `
const { appendFileSync, mkdirSync, rmSync, writeFileSync } = require('node:fs');
const out = 'dist/apps/cli/src';
appendFileSync('builds.log', 'build\\n');
rmSync('dist/apps/cli', { recursive: true, force: true });
mkdirSync(out, { recursive: true });
writeFileSync(out + '/main.js', "exports.runCli = async () => { console.log(require('./later').said); return 0; };");
Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Number(process.env.FAKE_BUILD_MS ?? 0));
if (process.env.FAKE_BUILD_FAILS) process.exit(1);
writeFileSync(out + '/later.js', "exports.said = 'ran';");
`;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'payhook-bin-'));
    mkdirSync(join(root, 'bin'));
    copyFileSync(join(__dirname, '../../bin/payhook.js'), join(root, 'bin/payhook.js'));
    mkdirSync(join(root, 'apps/cli/src'), { recursive: true });
    writeFileSync(join(root, 'apps/cli/src/main.ts'), '');
    mkdirSync(join(root, 'node_modules/@nestjs/cli/bin'), { recursive: true });
    writeFileSync(join(root, 'node_modules/@nestjs/cli/bin/nest.js'), FAKE_NEST);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const lock = () => join(root, 'dist/.payhook-cli-build');
  const builds = () => (existsSync(join(root, 'builds.log')) ? readFileSync(join(root, 'builds.log'), 'utf8') : '');
  const run = (env: Record<string, string> = {}) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [join(root, 'bin/payhook.js')], {
        cwd: root,
        env: { PATH: process.env.PATH ?? '', ...env },
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('exit', (code) => resolve({ code, stdout, stderr }));
    });

  it('releases the lock when the build fails, so the next command builds at once', async () => {
    const failed = await run({ FAKE_BUILD_FAILS: '1' });
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('building the CLI failed');
    expect(existsSync(lock())).toBe(false);

    const started = Date.now();
    const next = await run();
    expect({ code: next.code, stdout: next.stdout }).toEqual({ code: 0, stdout: 'ran\n' });
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(builds()).toBe('build\nbuild\n');
  });

  it('builds once for two commands started together, and neither runs the half-written build', async () => {
    const first = run({ FAKE_BUILD_MS: '1500' });
    while (!existsSync(lock())) await new Promise((resolve) => setTimeout(resolve, 20));
    const second = run();
    for (const result of await Promise.all([first, second])) {
      expect({ code: result.code, stdout: result.stdout }).toEqual({ code: 0, stdout: 'ran\n' });
    }
    expect(builds()).toBe('build\n');
    expect(existsSync(lock())).toBe(false);
  });

  it('runs what `npm run build` built, and builds again only after a source changed', async () => {
    // What scripts/build.mjs leaves: the CLI's entry and the newest source time it built.
    mkdirSync(join(root, 'dist/apps/cli/src'), { recursive: true });
    writeFileSync(
      join(root, 'dist/apps/cli/src/main.js'),
      "exports.runCli = async () => { console.log('full build'); return 0; };",
    );
    const source = join(root, 'apps/cli/src/main.ts');
    writeFileSync(join(root, 'dist/.payhook-built'), String(statSync(source).mtimeMs));
    // A spec is not compiled into dist/: a newer one needs no build.
    writeFileSync(join(root, 'apps/cli/src/main.spec.ts'), '');
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(root, 'apps/cli/src/main.spec.ts'), later, later);

    expect(await run()).toMatchObject({ code: 0, stdout: 'full build\n' });
    expect(builds()).toBe('');

    utimesSync(source, later, later);
    expect(await run()).toMatchObject({ code: 0, stdout: 'ran\n' });
    expect(builds()).toBe('build\n');
  });

  it('takes over a lock that a killed build left behind', async () => {
    mkdirSync(lock(), { recursive: true });
    const longAgo = new Date(Date.now() - 600_000);
    utimesSync(lock(), longAgo, longAgo);
    const result = await run();
    expect({ code: result.code, stdout: result.stdout }).toEqual({ code: 0, stdout: 'ran\n' });
    expect(builds()).toBe('build\n');
  });
});
