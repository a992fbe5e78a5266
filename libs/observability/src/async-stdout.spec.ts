import { execFileSync } from 'node:child_process';
import { constants, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { asyncStdout } from './logging';

describe('asyncStdout', () => {
  let dir: string;
  let fd: number;

  beforeEach(() => {
    // A pipe nobody reads: once its buffer is full, the destination holds lines, then drops them.
    dir = mkdtempSync(join(tmpdir(), 'async-stdout-'));
    execFileSync('mkfifo', [join(dir, 'stdout')]);
    fd = openSync(join(dir, 'stdout'), constants.O_RDWR | constants.O_NONBLOCK);
  });

  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('says on stderr how many lines it dropped when stdout stopped taking them', async () => {
    const reports: string[] = [];
    let destination!: ReturnType<typeof asyncStdout>;
    await new Promise<void>((resolve) => {
      destination = asyncStdout('payhook-test', {
        fd,
        maxLength: 4096,
        reportMs: 20,
        report: (line) => {
          reports.push(line);
          resolve();
        },
      });
      const logger = pino(destination);
      for (let n = 0; n < 2000; n++) logger.info({ n, padding: 'x'.repeat(100) }, 'a line nobody reads');
    });
    // Closing the pipe under a write still waiting on it fails that write: expected here.
    const stream = destination as unknown as NodeJS.EventEmitter & { destroy(): void };
    stream.on('error', () => undefined);
    const closed = new Promise((resolve) => stream.once('close', resolve));
    stream.destroy();
    await closed;
    expect(reports).toHaveLength(1);
    const [, count] = /^payhook-test: (\d+) log line\(s\) dropped: stdout did not take them/.exec(reports[0]) ?? [];
    expect(Number(count)).toBeGreaterThan(0);
    expect(Number(count)).toBeLessThan(2000);
  });
});
