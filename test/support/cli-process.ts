import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { pollUntil, POLL_TIMEOUT_MS } from './poll-until';

/** The `payhook` bin of package.json, run as a developer runs it. */
export const PAYHOOK_BIN = join(__dirname, '../../bin/payhook.js');

/** A `payhook` command running as a real child process, its output kept line by line. */
export class CliProcess {
  readonly stdout: string[] = [];
  readonly stderr: string[] = [];
  readonly exited: Promise<number | null>;
  private readonly child: ChildProcess;

  constructor(args: string[], env: Record<string, string>) {
    this.child = spawn(process.execPath, [PAYHOOK_BIN, ...args], {
      // Not a TTY and NO_COLOR: plain lines, as a script sees them.
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NO_COLOR: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    collectLines(this.child.stdout!, this.stdout);
    collectLines(this.child.stderr!, this.stderr);
    this.exited = new Promise((resolve) => this.child.once('exit', (code) => resolve(code)));
  }

  /** Runs a command to its end: its exit code and output. */
  static async run(args: string[], env: Record<string, string>) {
    const cli = new CliProcess(args, env);
    const code = await cli.exited;
    return { code, stdout: cli.stdout, stderr: cli.stderr };
  }

  /** The first stdout line matching `pattern`, once printed. */
  async line(pattern: RegExp, timeoutMs = POLL_TIMEOUT_MS): Promise<RegExpMatchArray> {
    const found = await pollUntil(
      async () => this.stdout.map((line) => pattern.exec(line)).find((match) => match !== null) ?? null,
      (match) => match !== null,
      { timeoutMs },
    ).catch((error: unknown) => {
      throw new Error(`${String(error)}\nstdout:\n${this.stdout.join('\n')}\nstderr:\n${this.stderr.join('\n')}`);
    });
    return found!;
  }

  /** Ctrl-C, and the exit code. */
  async interrupt(): Promise<number | null> {
    this.child.kill('SIGINT');
    return this.exited;
  }

  kill(): void {
    if (this.child.exitCode === null) this.child.kill('SIGKILL');
  }
}

function collectLines(stream: NodeJS.ReadableStream, into: string[]): void {
  let rest = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop() ?? '';
    into.push(...lines);
  });
  stream.on('end', () => {
    if (rest !== '') into.push(rest);
  });
}
