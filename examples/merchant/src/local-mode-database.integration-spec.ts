import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { POSTGRES_URL } from '../../../test/support/test-env';
import { localModeDatabaseUrl } from './local-mode-database';

/** A port nothing listens on: taken from the system, then let go. */
async function closedPort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("the example merchant's choice of payhook's local-mode database", () => {
  let dataDir: string;
  const lines: string[] = [];
  const log = (line: string) => lines.push(line);

  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'example-merchant-'));
    lines.length = 0;
  });
  afterEach(() => rm(dataDir, { recursive: true, force: true }));

  it('uses example_merchant on the server local mode wrote down while it answers', async () => {
    await writeFile(join(dataDir, 'database-url'), `${POSTGRES_URL}\n`);
    const url = new URL((await localModeDatabaseUrl(dataDir, log))!);
    expect(url.host).toBe(new URL(POSTGRES_URL).host);
    expect(url.pathname).toBe('/example_merchant');
    expect(lines).toEqual([expect.stringContaining("on payhook's local-mode PostgreSQL")]);
  });

  it('leaves a server that no longer answers (payhook stopped, or runs in another mode) alone', async () => {
    await writeFile(join(dataDir, 'database-url'), `postgres://postgres:x@127.0.0.1:${await closedPort()}/payhook\n`);
    await expect(localModeDatabaseUrl(dataDir, log)).resolves.toBeUndefined();
    expect(lines).toEqual([expect.stringContaining('does not answer')]);
  });

  it('has nothing to choose without the file', async () => {
    await expect(localModeDatabaseUrl(dataDir, log)).resolves.toBeUndefined();
    expect(lines).toEqual([]);
  });
});
