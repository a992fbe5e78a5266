import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  assertReachable,
  postgresUser,
  privateDirectory,
  runnableBinaries,
  type Binaries,
  type RunAs,
} from './embedded-postgres';

/**
 * Which PostgreSQL binaries local mode runs (issue 25). As root (this suite runs as root: the
 * local-mode e2e needs `unshare`), Postgres runs as the user postgres; binaries that user cannot
 * reach are copied. Older payhooks copied them to a fixed path in the shared temp directory and
 * used whatever there answered `--version`: another local user could plant a `postgres` there.
 */
describe('the embedded PostgreSQL binaries', () => {
  let runAs: RunAs;
  let packaged: Binaries;
  const cleanup: string[] = [];

  beforeAll(() => {
    runAs = postgresUser();
    // The platform package's binaries (its ES module entry names them; Jest runs CommonJS).
    const native = join(
      dirname(require.resolve(`@embedded-postgres/${process.platform}-${process.arch}`)),
      '..',
      'native',
    );
    packaged = { initdb: join(native, 'bin', 'initdb'), postgres: join(native, 'bin', 'postgres') };
  });
  afterAll(() => {
    for (const path of cleanup) rmSync(path, { recursive: true, force: true });
  });

  const versionOf = (binary: string) => spawnSync(binary, ['--version'], { ...runAs, encoding: 'utf8' }).stdout;

  /** The platform package's binaries in a project directory of root's with this mode. */
  function projectWithMode(mode: number): Binaries {
    const project = mkdtempSync(join(tmpdir(), 'payhook-project-'));
    cleanup.push(project);
    chmodSync(project, mode);
    const native = join(project, 'native');
    cpSync(dirname(dirname(packaged.postgres)), native, { recursive: true, verbatimSymlinks: true });
    return { initdb: join(native, 'bin', 'initdb'), postgres: join(native, 'bin', 'postgres') };
  }

  it('are used in place, where npm installed them, when the user postgres can run them there', async () => {
    const reachable = projectWithMode(0o755);
    const privateDir = await privateDirectory(runAs);
    cleanup.push(privateDir);
    expect(runnableBinaries(reachable, runAs, privateDir)).toEqual(reachable);
  });

  it('are otherwise copied to a fresh 0700 directory of the start, and a binary planted in /tmp is never run', async () => {
    // A project only root may enter (a home of 0700, a checkout in a mktemp directory).
    const unreachable = projectWithMode(0o700);
    expect(spawnSync(unreachable.postgres, ['--version'], runAs).status).not.toBe(0);

    // What another local user could have put at the shared path the copy used to go to.
    const { name, version } = JSON.parse(
      readFileSync(join(dirname(dirname(dirname(packaged.postgres))), 'package.json'), 'utf8'),
    ) as {
      name: string;
      version: string;
    };
    const planted = join(tmpdir(), `payhook-${name.replace(/\W+/g, '-')}-${version}`);
    cleanup.push(planted);
    mkdirSync(join(planted, 'bin'), { recursive: true });
    for (const binary of ['postgres', 'initdb']) {
      writeFileSync(join(planted, 'bin', binary), '#!/bin/sh\necho planted\n', { mode: 0o755 });
    }
    chmodSync(planted, 0o755);

    const privateDir = await privateDirectory(runAs);
    cleanup.push(privateDir);
    const chosen = runnableBinaries(unreachable, runAs, privateDir);

    expect(dirname(dirname(chosen.postgres))).toBe(join(privateDir, 'binaries'));
    expect(dirname(dirname(chosen.initdb))).toBe(join(privateDir, 'binaries'));
    expect(versionOf(chosen.postgres)).toMatch(/^postgres \(PostgreSQL\) 18\./);
    expect(versionOf(chosen.initdb)).toMatch(/^initdb \(PostgreSQL\) 18\./);
    // Only the user postgres (and root) may enter it: nobody else could have put anything there.
    const made = statSync(privateDir);
    expect(made.mode & 0o777).toBe(0o700);
    expect([made.uid, made.gid]).toEqual([runAs.uid, runAs.gid]);
  });

  it('refuse, in one line saying what to do, a data directory the user postgres cannot enter', () => {
    // Issue 47: a `mktemp -d` checkout run as root, where initdb used to fail about permissions.
    const project = mkdtempSync(join(tmpdir(), 'payhook-project-'));
    cleanup.push(project);
    const dataDir = join(project, 'checkout', '.payhook');
    mkdirSync(dataDir, { recursive: true, mode: 0o755 });
    chmodSync(join(project, 'checkout'), 0o755);
    chmodSync(project, 0o700);
    expect(() => assertReachable(dataDir, runAs)).toThrow(
      `as root, PostgreSQL runs as the user postgres, which cannot enter ${project}: ` +
        'keep the data where it can, e.g. PAYHOOK_DATA_DIR=/var/tmp/payhook npm start',
    );
    chmodSync(project, 0o755);
    expect(() => assertReachable(dataDir, runAs)).not.toThrow();
  });

  it('get a new private directory on every start', async () => {
    const [first, second] = [await privateDirectory(runAs), await privateDirectory(runAs)];
    cleanup.push(first, second);
    expect(first).not.toBe(second);
    expect(dirname(first)).toBe(tmpdir());
  });
});
