import { execFile } from 'node:child_process';
import { join } from 'node:path';

/**
 * ADR 0014: `npm run lint` holds the ledger's boundary. Each case lints a short text as if it were a
 * real file of the payments-api (the file itself is not touched) with the repository's own config.
 */
const ROOT = join(__dirname, '..', '..');
const SRC = 'apps/payments-api/src';

interface Linted {
  filePath: string;
  messages: { ruleId: string | null; message: string }[];
}

function lintTexts(inputs: { filePath: string; text: string }[]): Promise<Linted[]> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      [join(ROOT, 'test/support/lint-texts.mjs')],
      { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) =>
        error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(JSON.parse(stdout)),
    );
    child.stdin!.end(JSON.stringify(inputs));
  });
}

const cases = [
  {
    name: 'a feature importing a file inside the ledger',
    filePath: `${SRC}/deposits/deposits.service.ts`,
    text: `import type { LedgerTx } from '../ledger/ledger-tx';\nexport type Tx = LedgerTx;\n`,
    fails: /Import the ledger from its index/,
  },
  {
    name: 'a feature opening a transaction of its own',
    filePath: `${SRC}/reviews/reviews.service.ts`,
    text: `import { inTransaction } from '@payhook/persistence';\nexport const open = inTransaction;\n`,
    fails: /Money and state move in Ledger\.write/,
  },
  {
    name: 'the ledger importing a feature folder',
    filePath: `${SRC}/ledger/ledger.ts`,
    text: `import { PaymentsRepository } from '../payments/payments.repository';\nexport const repository = PaymentsRepository;\n`,
    fails: /The ledger imports no feature folder/,
  },
  {
    name: 'a feature importing the ledger through its index',
    filePath: `${SRC}/deposits/deposits.service.ts`,
    text: `import type { LedgerTx } from '../ledger';\nexport type Tx = LedgerTx;\n`,
    fails: null,
  },
  {
    name: 'an allow-listed repository opening a transaction over rows that move no money',
    filePath: `${SRC}/auth-throttle/auth-failures.repository.ts`,
    text: `import { inTransaction } from '@payhook/persistence';\nexport const open = inTransaction;\n`,
    fails: null,
  },
];

describe('the ledger boundary (eslint.config.mjs)', () => {
  let results: Linted[];

  beforeAll(async () => {
    results = await lintTexts(cases.map(({ filePath, text }) => ({ filePath, text })));
  }, 120_000);

  it.each(cases.map((one, index) => [one.name, index] as const))('%s', (_name, index) => {
    const { fails } = cases[index];
    const restricted = results[index].messages.filter((message) => message.ruleId === 'no-restricted-imports');
    if (fails === null) {
      expect(results[index].messages).toEqual([]);
    } else {
      expect(restricted).toEqual([expect.objectContaining({ message: expect.stringMatching(fails) })]);
    }
  });
});
