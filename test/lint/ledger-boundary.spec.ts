import { describeBoundary, type BoundaryCase } from '../support/lint';

/**
 * ADR 0014: `npm run lint` holds the ledger's boundary (imports, transactions, SQL writes of the money
 * tables). Each case lints a short text as if it were a real file of the payments-api (the file itself
 * is not touched) with the repository's own config.
 */
const SRC = 'apps/payments-api/src';

const cases: BoundaryCase[] = [
  {
    name: 'a feature importing a file inside the ledger',
    filePath: `${SRC}/money/deposits/deposits.service.ts`,
    text: `import type { LedgerTx } from '../../core/ledger/ledger-tx';\nexport type Tx = LedgerTx;\n`,
    fails: /Import the ledger from its index/,
  },
  {
    name: 'a feature opening a transaction of its own',
    filePath: `${SRC}/money/reviews/reviews.service.ts`,
    text: `import { inTransaction } from '@payhook/persistence';\nexport const open = inTransaction;\n`,
    fails: /Money and state move in Ledger\.write/,
  },
  {
    name: 'the ledger importing a feature folder',
    filePath: `${SRC}/core/ledger/ledger.ts`,
    text: `import { PaymentsRepository } from '../../money/payments/payments.repository';\nexport const repository = PaymentsRepository;\n`,
    fails: /The ledger imports no feature folder/,
  },
  {
    name: 'a feature importing the ledger through its index',
    filePath: `${SRC}/money/deposits/deposits.service.ts`,
    text: `import type { LedgerTx } from '../../core/ledger';\nexport type Tx = LedgerTx;\n`,
    fails: null,
  },
  {
    name: 'an allow-listed repository opening a transaction over rows that move no money',
    filePath: `${SRC}/accounts/auth-throttle/auth-failures.repository.ts`,
    text: `import { inTransaction } from '@payhook/persistence';\nexport const open = inTransaction;\n`,
    fails: null,
  },
  {
    name: 'a feature writing a payment in SQL of its own',
    filePath: `${SRC}/money/reviews/reviews.service.ts`,
    text: `export const statement = 'UPDATE payments SET status = $1 WHERE id = $2';\n`,
    fails: /Only src\/core\/ledger\/ writes payments/,
  },
  {
    name: 'a feature holding a voucher in SQL of its own (a template over several lines)',
    filePath: `${SRC}/money/vouchers/registry-voucher-issuer.ts`,
    text: `export const statement = \`\n  UPDATE vouchers SET status = 'held', payment_id = $2\n   WHERE id = $1\`;\n`,
    fails: /Only src\/core\/ledger\/ writes payments/,
  },
  {
    name: 'a feature inserting a settlement record in SQL of its own',
    filePath: `${SRC}/money/deposits/deposits.repository.ts`,
    text: `export const statement = 'insert into settlements (id) values ($1)';\n`,
    fails: /Only src\/core\/ledger\/ writes payments/,
  },
  {
    name: 'a feature calling .transaction() on a data source',
    filePath: `${SRC}/money/reviews/reviews.service.ts`,
    text: `export const open = (db: { transaction(): void }) => db.transaction();\n`,
    fails: /Money and state move in Ledger\.write/,
  },
  {
    name: 'a feature sending BEGIN on a connection',
    filePath: `${SRC}/money/reviews/reviews.service.ts`,
    text: `export const begin = (db: { query(text: string): void }) => db.query('BEGIN');\n`,
    fails: /no BEGIN of a transaction of its own/,
  },
  {
    name: 'an allow-listed file sending START TRANSACTION (the allow-list lifts the table rule only)',
    filePath: `${SRC}/webhooks/outbox/outbox.repository.ts`,
    text: `export const begin = (db: { query(text: string): void }) => db.query(\`START TRANSACTION\`);\n`,
    fails: /no BEGIN of a transaction of its own/,
  },
  {
    name: 'the ledger writing a payment in SQL',
    filePath: `${SRC}/core/ledger/payment-writes.ts`,
    text: `export const statement = 'UPDATE payments SET status = $1 WHERE id = $2';\n`,
    fails: null,
  },
  {
    name: 'a feature writing a deposit in SQL of its own',
    filePath: `${SRC}/money/deposits/deposits.repository.ts`,
    text: `export const settle = 'UPDATE deposits SET outcome = $2 WHERE id = $1';\n`,
    fails: /Only src\/core\/ledger\/ writes payments, refunds, cash_receipts, deposits/,
  },
  {
    name: 'a feature issuing a cash receipt in SQL of its own',
    filePath: `${SRC}/money/cash-receipts/cash-receipt-operations.service.ts`,
    text: `export const issue = \`UPDATE cash_receipts SET status = 'issued', issue_number = $2 WHERE id = $1\`;\n`,
    fails: /Only src\/core\/ledger\/ writes payments/,
  },
  {
    name: 'a feature opening a review case in SQL of its own',
    filePath: `${SRC}/money/reviews/reviews.service.ts`,
    text: `export const open = \`INSERT INTO review_cases (id, status) VALUES ($1, 'open')\`;\n`,
    fails: /Only src\/core\/ledger\/ writes payments/,
  },
  {
    name: 'an allow-listed file writing its own table where it runs the statement',
    filePath: `${SRC}/money/deposits/deposit-codes.repository.ts`,
    text:
      `type Sql = (text: string, params: unknown[]) => Promise<unknown>;\n` +
      `export const give = (sql: Sql, id: string, code: string) =>\n` +
      `  sql('UPDATE payments SET deposit_code = $2 WHERE id = $1 AND deposit_code IS NULL', [id, code]);\n`,
    fails: null,
  },
  {
    name: 'an allow-listed file handing the write of its table to another file (a payment insert exported as text)',
    filePath: `${SRC}/money/deposits/deposit-codes.repository.ts`,
    text: `export const statement = \`UPDATE payments SET deposit_code = $2 WHERE id = $1\`;\n`,
    fails: /An allow-listed write of payments is run where it is written/,
  },
  {
    name: 'an allow-listed file writing a money table it is not allowed (a refund moved by the deposit codes file)',
    filePath: `${SRC}/money/deposits/deposit-codes.repository.ts`,
    text:
      `type Sql = (text: string, params: unknown[]) => Promise<unknown>;\n` +
      `export const pay = (sql: Sql, id: string) => sql("UPDATE refunds SET status = 'succeeded' WHERE id = $1", [id]);\n`,
    fails: /Only src\/core\/ledger\/ writes payments/,
  },
  {
    name: 'an allow-listed file writing its own table in another form (the deposit codes file moving a payment)',
    filePath: `${SRC}/money/deposits/deposit-codes.repository.ts`,
    text:
      `type Sql = (text: string, params: unknown[]) => Promise<unknown>;\n` +
      `export const pay = (sql: Sql, id: string) =>\n` +
      `  sql(\`UPDATE payments SET deposit_code = $2, status = 'completed' WHERE id = $1\`, [id]);\n`,
    fails: /Only src\/core\/ledger\/ writes payments/,
  },
  {
    name: 'an allow-listed file sending its write through a call that only wraps the text',
    filePath: `${SRC}/money/deposits/deposit-codes.repository.ts`,
    text: `export const leak = () => String(\`UPDATE payments SET deposit_code = $2 WHERE id = $1\`);\n`,
    fails: /An allow-listed write of payments is run where it is written/,
  },
  ...[
    ['MERGE INTO payments p USING incoming i ON p.id = i.id WHEN MATCHED THEN DELETE', 'a MERGE'],
    ['TRUNCATE refunds', 'a TRUNCATE'],
    ['TRUNCATE TABLE settlements', 'a TRUNCATE TABLE'],
    ['COPY vouchers FROM STDIN', 'a COPY'],
    ['UPDATE "payments" SET status = $1', 'a quoted table name'],
    ['DELETE FROM public.review_cases WHERE id = $1', 'a schema-qualified table name'],
  ].map(([sql, how]) => ({
    name: `a feature writing a money table by ${how}`,
    filePath: `${SRC}/money/reviews/reviews.service.ts`,
    text: `export const statement = '${sql}';\n`,
    fails: /Only src\/core\/ledger\/ writes payments/,
  })),
  {
    name: 'a feature reading a table whose name starts with a money table',
    filePath: `${SRC}/money/reviews/reviews.service.ts`,
    text: `export const statement = 'UPDATE payments_archive SET note = $1';\n`,
    fails: null,
  },
  {
    name: 'an allow-listed rekeyer re-sealing refund rows where it runs the statement',
    filePath: `${SRC}/money/refunds/refund-accounts.rekeyer.ts`,
    text:
      `type Sql = (text: string, params: unknown[]) => Promise<unknown>;\n` +
      `export const reseal = (sql: Sql, id: string, sealed: string) =>\n` +
      `  sql(\`UPDATE refunds f SET refund_account_sealed = r.sealed FROM unnest($1::text[], $2::text[]) AS r (id, sealed) WHERE f.id = r.id\`, [id, sealed]);\n`,
    fails: null,
  },
  {
    name: "an allow-listed rekeyer re-sealing buyers' numbers on payments and receipts where it runs the statements",
    filePath: `${SRC}/money/cash-receipts/cash-receipt-identities.rekeyer.ts`,
    text:
      `type Sql = (text: string, params: unknown[]) => Promise<unknown>;\n` +
      `export const reseal = (sql: Sql, ids: string[], sealed: string[]) => Promise.all([\n` +
      `  sql(\`UPDATE payments p SET cash_receipt_identity_sealed = r.sealed FROM unnest($1::text[], $2::text[]) AS r (id, sealed) WHERE p.id = r.id\`, [ids, sealed]),\n` +
      `  sql(\`UPDATE cash_receipts c SET identity_number_sealed = r.sealed FROM unnest($1::text[], $2::text[]) AS r (id, sealed) WHERE c.id = r.id\`, [ids, sealed]),\n` +
      `]);\n`,
    fails: null,
  },
  {
    name: "the cash receipts' rekeyer moving a receipt's state (its allow-list covers the sealed numbers only)",
    filePath: `${SRC}/money/cash-receipts/cash-receipt-identities.rekeyer.ts`,
    text:
      `type Sql = (text: string, params: unknown[]) => Promise<unknown>;\n` +
      `export const issue = (sql: Sql, id: string) => sql(\`UPDATE cash_receipts c SET status = 'issued' WHERE c.id = $1\`, [id]);\n`,
    fails: /Only src\/core\/ledger\/ writes payments/,
  },
  {
    name: 'a feature writing rows that are no money record and locking a payment it reads',
    filePath: `${SRC}/money/holidays/holidays.repository.ts`,
    text:
      `export const add = 'INSERT INTO holidays (day, name) VALUES ($1, $2)';\n` +
      `export const lock = 'SELECT id FROM payments WHERE id = $1 FOR UPDATE';\n`,
    fails: null,
  },
];

describeBoundary('the ledger boundary (eslint.config.mjs)', cases, ['no-restricted-imports', 'no-restricted-syntax']);
