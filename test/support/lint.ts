import { execFile } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

export interface Linted {
  filePath: string;
  messages: { ruleId: string | null; message: string }[];
}

/**
 * Lints short texts as if they were the files at `filePath` (the files themselves are not touched),
 * with the repository's own eslint.config.mjs, in a child process (test/support/lint-texts.mjs).
 */
export function lintTexts(inputs: { filePath: string; text: string }[]): Promise<Linted[]> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      [join(ROOT, 'test/support/lint-texts.mjs')],
      { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) =>
        error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(JSON.parse(stdout) as Linted[]),
    );
    child.stdin!.end(JSON.stringify(inputs));
  });
}

/** A short text linted as the file at `filePath`: `fails` the message a boundary rule must give, or null for none at all. */
export interface BoundaryCase {
  name: string;
  filePath: string;
  text: string;
  fails: RegExp | null;
}

/**
 * One test per case, all linted in one child process: a forbidden text gets exactly one message of
 * `ruleIds`, matching `fails`; an allowed one gets no message at all.
 */
export function describeBoundary(title: string, cases: readonly BoundaryCase[], ruleIds: readonly string[]): void {
  describe(title, () => {
    let results: Linted[];

    beforeAll(async () => {
      results = await lintTexts(cases.map(({ filePath, text }) => ({ filePath, text })));
    }, 120_000);

    it.each(cases.map((one, index) => [one.name, index] as const))('%s', (_name, index) => {
      const { fails } = cases[index];
      if (fails === null) {
        expect(results[index].messages).toEqual([]);
      } else {
        const restricted = results[index].messages.filter((message) => ruleIds.includes(message.ruleId ?? ''));
        expect(restricted).toEqual([expect.objectContaining({ message: expect.stringMatching(fails) })]);
      }
    });
  });
}
