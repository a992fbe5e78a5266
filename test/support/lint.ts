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
