// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** libs are reached only through their index: `@payhook/<lib>`, never a path into them. */
const noDeepLibImports = {
  group: ['**/libs/*/src/**', '@payhook/*/**'],
  message: 'Import a lib as @payhook/<lib>, never past its index.ts.',
};
const noApps = { group: ['**/apps/**'], message: 'libs never import apps.' };
const frameworkOf = (who) =>
  ['@nestjs/*', 'typeorm', 'pg', 'amqplib', 'amqp-connection-manager', 'express'].map((name) => ({
    group: [name],
    message: `${who} import no framework.`,
  }));
const framework = frameworkOf('contracts and signing');
const otherApp = (app) => ({
  group: [`**/${app}/**`],
  message: 'The two apps never import each other; share code through libs/.',
});

/** ADR 0014: the ledger's files are its own; everything else uses its index. */
const ledgerInternals = {
  regex: '^(\\.{1,2}/)+(.*/)?ledger/(?!index$)',
  message: 'Import the ledger from its index (../../core/ledger), never a file inside it (ADR 0014).',
};
/** The ledger imports no feature folder. */
const ledgerOutwards = {
  regex: '^\\.\\./',
  message: 'The ledger imports no feature folder: features call the ledger, not the other way round (ADR 0014).',
};
/**
 * The rooms of payments-api (docs/architecture.md). These rules use typescript-eslint's copy of
 * no-restricted-imports, so they add to the ledger's rules above instead of replacing them.
 */
const ROOMS = ['core', 'money', 'webhooks', 'accounts', 'surfaces'];
/** A relative path that passes through `<one of names>/` anywhere (however it is spelled: ./../, a/../b). */
const through = (names, after = '(/|$)') => `^\\.(.*/)?(${names.join('|')})${after}`;
const noRoomFromPlatform = {
  regex: through(ROOMS),
  message: 'platform/ knows no domain: it imports no room (docs/architecture.md).',
};
const noOtherRoomFromCore = {
  regex: through(['money', 'webhooks', 'accounts', 'surfaces']),
  message: 'core/ is what the features stand on: it imports no other room (docs/architecture.md).',
};
const noSurfaces = {
  regex: through(['surfaces']),
  message:
    'Nothing imports surfaces/ but the composition root (payments-api.module.ts, app.setup.ts): surfaces call features, never the other way round.',
};
/** A feature of another domain room is reached through its index.ts door, never a file inside it. */
const throughDoors = (room) => ({
  regex: through(
    ['money', 'webhooks', 'accounts'].filter((other) => other !== room),
    '/[^/]+/(?!index$)',
  ),
  message: `${room}/ reaches a feature of another room through its index.ts only (../../<room>/<feature>; give the feature one if it has none).`,
});
/** A relative path past the door of a feature of `rooms` (core/ledger aside: the ledger's own rules hold it). */
const pastDoors = (rooms) => through(rooms, '/(?!ledger/)[^/]+/(?!index$)');
/** core's features (audit, idempotency) are reached through their index.ts door too, like the ledger. */
const throughCoreDoors = (room) => ({
  regex: pastDoors(['core']),
  message: `${room}/ reaches a feature of core/ through its index.ts only (../../core/<feature>; give the feature one if it has none).`,
});
/** Surfaces (and the composition root) call a feature through its index.ts door, never a file inside it. */
const throughDoorsFrom = (who) => ({
  regex: pastDoors(['core', 'money', 'webhooks', 'accounts']),
  message: `${who} a feature through its index.ts only (<room>/<feature>; give the feature one if it has none).`,
});
const noLedgerInSurfaces = {
  regex: through(['core/ledger', 'libs/persistence']),
  message: "Surfaces render and call features: the money rules they show come through a feature's door.",
};
const noPersistenceInSurfaces = ['@payhook/persistence', 'typeorm', '@nestjs/typeorm', 'pg'].map((name) => ({
  name,
  message: 'Surfaces hold no SQL: they call features, which read and write.',
}));
/** Modules load statically: a dynamic import() would get round every wall above. */
const noDynamicImports = {
  selector: 'ImportExpression',
  message:
    'payments-api imports statically: a dynamic import() gets round the rooms and the ledger (docs/architecture.md).',
};
const roomRules = (room, patterns, { paths = [], ignores = [] } = {}) => ({
  files: [`apps/payments-api/src/${room}/**`],
  ignores: ignores.map((file) => `apps/payments-api/src/${room}/${file}`),
  rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns, paths }] },
});
const noWriteTransaction = {
  name: '@payhook/persistence',
  importNames: ['inTransaction'],
  message: 'Money and state move in Ledger.write (ADR 0014); only the allow-listed files open a transaction.',
};
/**
 * Other ways into a transaction, which would get round the ledger as inTransaction would: TypeORM's
 * own, and a BEGIN / START TRANSACTION statement sent on a connection.
 */
const noOtherTransactions = [
  {
    selector: 'CallExpression[callee.property.name=/^(transaction|startTransaction)$/]',
    message: 'Money and state move in Ledger.write (ADR 0014).',
  },
  ...['Literal[value', 'TemplateElement[value.raw'].map((node) => ({
    selector: `${node}=/^\\s*(START\\s+TRANSACTION\\b|BEGIN\\s*(;|$|(WORK|TRANSACTION|ISOLATION|READ)\\b))/i]`,
    message: 'Money and state move in Ledger.write (ADR 0014): no BEGIN of a transaction of its own.',
  })),
];
/**
 * Every way SQL writes a table: a statement's verb, then the table, bare, schema-qualified or quoted.
 * `(?!\\w)` ends the name where `\\b` cannot (after a closing quote).
 */
const ANY_WRITE = 'INSERT\\s+INTO|UPDATE|DELETE\\s+FROM|MERGE\\s+INTO|TRUNCATE(\\s+TABLE)?|COPY';
/** Every way SQL changes or removes rows that exist. */
const CHANGE_VERBS = 'UPDATE|DELETE\\s+FROM|MERGE\\s+INTO|TRUNCATE(\\s+TABLE)?|COPY';
const writeOf = (tables, verbs = ANY_WRITE, except = []) =>
  `/\\b${except.length ? `(?!${except.join('|')})` : ''}(${verbs})\\s+(ONLY\\s+)?("?public"?\\.)?"?(${tables.join('|')})"?(?!\\w)/i`;
/** SQL text (a string or a template's part) matching `pattern`, for no-restricted-syntax. */
const sqlText = (pattern, message) =>
  [`Literal[value=${pattern}]`, `TemplateElement[value.raw=${pattern}]`].map((selector) => ({ selector, message }));
/** SQL text that `verbs` one of `tables`, except the statement forms `except` (regex sources). */
const tableWrites = (verbs, tables, message, except = []) => sqlText(writeOf(tables, verbs, except), message);
/**
 * The money records (ADR 0014): a payment and its moves, refunds, cash receipts, deposits, review cases (money owed
 * back), held voucher value, settlement records, events and their outbox rows. Outside
 * src/core/ledger/, SQL that writes one of them is an error. Webhook attempts and the delivery state
 * are the webhook-dispatcher's (the rules below).
 */
const MONEY_TABLES = [
  'payments',
  'refunds',
  'cash_receipts',
  'deposits',
  'review_cases',
  'vouchers',
  'settlements',
  'events',
  'outbox',
];
const moneyWritesMessage = `Only src/core/ledger/ writes ${MONEY_TABLES.join(', ')}: use a LedgerTx writer (ADR 0014).`;
/** SQL writing a money table, but for the statement forms `allowed`: only the ledger writes them. */
const noMoneyTableWrites = (allowed = []) => tableWrites(ANY_WRITE, MONEY_TABLES, moneyWritesMessage, allowed);
/**
 * A statement form an allow-listed file may send: its words in order, any whitespace between them,
 * `$n` for a parameter and `x` for a column of a joined input. Nothing else may be set in it.
 */
const statementForm = (words) =>
  words
    .split(' ')
    .map((word) =>
      word
        .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
        .replace(/\\\$n/g, '\\$\\d+')
        .replace(/^x\b/, '[\\w.]+'),
    )
    .join('\\s+');
/**
 * What sends SQL: the statement is its argument (sql, sqlRows, tx.sql, db.query, and a LastStatement,
 * which inTransaction sends with the COMMIT).
 */
const SENDERS = [
  'CallExpression[callee.name=/^(sql|sqlRows)$/]',
  'CallExpression[callee.property.name=/^(sql|query)$/]',
  'NewExpression[callee.name=LastStatement]',
];
/**
 * In an allow-listed file, each allowed write is sent where it is written: the text is an argument of
 * the call that sends it, so no constant or function hands it to a file the allow-list does not name.
 */
const runWhereWritten = (tables) => {
  const sent = `:matches(${SENDERS.map((sender) => `${sender} > Literal, ${sender} > TemplateLiteral > TemplateElement`).join(', ')})`;
  return [
    `Literal[value=${writeOf(tables)}]:not(${sent})`,
    `TemplateElement[value.raw=${writeOf(tables)}]:not(${sent})`,
  ].map((selector) => ({
    selector,
    message: `An allow-listed write of ${tables.join(', ')} is run where it is written: pass the SQL straight to sql(), sqlRows() or tx.sql() (ADR 0014).`,
  }));
};
/**
 * Writes of money tables that move no money and no state, each allowed in one file as the exact
 * statement forms it sends (ADR 0014); any other write of a money table there is an error. A new
 * entry needs that argument in review.
 */
const MONEY_TABLE_WRITES_ALLOWED = [
  {
    // The relay marking outbox rows published, and the purger deleting published ones.
    file: 'webhooks/outbox/outbox.repository.ts',
    tables: ['outbox'],
    forms: ['UPDATE outbox SET published_at = now() WHERE', 'DELETE FROM outbox WHERE'],
  },
  {
    // Loading available vouchers into the registry; their PINs moved to a new key.
    file: 'money/vouchers/vouchers.repository.ts',
    tables: ['vouchers'],
    forms: [
      'INSERT INTO vouchers (id, livemode, issuer, kind, pin_hash, pin_digest_sealed, pin_last4, face_value, status)',
      'UPDATE vouchers v SET pin_hash = x, pin_digest_sealed = x FROM',
    ],
  },
  {
    // Moving PIN hashes and sealed digests to a new key (a duplicate under both keys goes).
    file: 'money/vouchers/pin-rekeying.ts',
    tables: ['vouchers'],
    forms: [
      'DELETE FROM vouchers WHERE id = ANY($n::text[])',
      'UPDATE vouchers v SET pin_hash = x, pin_digest_sealed = x FROM',
      'UPDATE vouchers SET pin_digest_sealed = $n WHERE',
    ],
  },
  {
    // Re-sealing refund account numbers under a new key.
    file: 'money/refunds/refund-accounts.rekeyer.ts',
    tables: ['refunds'],
    forms: ['UPDATE refunds f SET refund_account_sealed = x FROM'],
  },
  {
    // Re-sealing buyers' numbers for cash receipts (a payment's request, a receipt's) under a new key.
    file: 'money/cash-receipts/cash-receipt-identities.rekeyer.ts',
    tables: ['payments', 'cash_receipts'],
    forms: [
      'UPDATE payments p SET cash_receipt_identity_sealed = x FROM',
      'UPDATE cash_receipts c SET identity_number_sealed = x FROM',
    ],
  },
  {
    // A payment's deposit code, given once on the payment screen's first view.
    file: 'money/deposits/deposit-codes.repository.ts',
    tables: ['payments'],
    forms: ['UPDATE payments SET deposit_code = $n WHERE'],
  },
  {
    // A `payhook listen` attempt counted on its event (docs/architecture.md, who writes delivery state).
    file: 'webhooks/deliveries/listen-attempts.ts',
    tables: ['events'],
    // ... and the attempt itself: the one write of webhook_attempts in payments-api.
    recordsListenAttempts: true,
    forms: ['UPDATE events SET attempt_count = attempt_count + 1, last_attempt_at = $n WHERE'],
  },
];
/**
 * Delivery state is the webhook-dispatcher's (docs/architecture.md): it alone changes
 * webhook_deliveries once they exist and it owns webhook_attempts. payments-api inserts a delivery
 * only with the event that owes it (core/ledger/event-writer.ts) and records a `payhook listen`
 * attempt in one door (webhooks/deliveries/listen-attempts.ts); everything else it asks for through
 * the outbox. These hold in every file of the app, the ledger included.
 */
const noAttemptWrites = tableWrites(
  ANY_WRITE,
  ['webhook_attempts'],
  'The webhook-dispatcher owns webhook_attempts (their purge too): payments-api reads them and records only a `payhook listen` attempt, in webhooks/deliveries/listen-attempts.ts (docs/architecture.md).',
);
const noDeliveryChanges = tableWrites(
  CHANGE_VERBS,
  ['webhook_deliveries'],
  'The webhook-dispatcher alone changes webhook_deliveries: ask it through the outbox (webhooks/deliveries, docs/architecture.md).',
);
const noDeliveryInserts = tableWrites(
  'INSERT\\s+INTO',
  ['webhook_deliveries'],
  'payments-api writes a delivery only with the event that owes it (core/ledger/event-writer.ts); the dispatcher writes any other.',
);
const noDeliveryStateWrites = [...noAttemptWrites, ...noDeliveryChanges, ...noDeliveryInserts];

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      // The SDK package's build output (npm pack in libs/sdk).
      'libs/sdk/dist/**',
      'node_modules/**',
      'coverage/**',
      'jest.config.js',
      'jest.scenarios.config.js',
      'eslint.config.mjs',
      'scripts/**',
      // The `payhook` bin: a plain CommonJS launcher of the built CLI (apps/cli).
      'bin/**',
      'bench/**',
      // Plain Node scripts a spec runs in a process of their own (like scripts/ and bench/), and
      // Jest's timings reporter (CommonJS, loaded by Jest itself).
      'test/support/*.mjs',
      'test/support/timings-reporter.js',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      // Nest's abstract-class tokens and module classes are empty on purpose.
      '@typescript-eslint/no-extraneous-class': 'off',
      'no-restricted-imports': ['error', { patterns: [noDeepLibImports] }],
    },
  },
  {
    files: ['apps/payments-api/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [noDeepLibImports, otherApp('webhook-dispatcher')] }] },
  },
  {
    // ADR 0014: outside src/core/ledger/ the ledger is reached through its index only, nothing opens a
    // write transaction and no SQL writes a money or state table: money and state move in Ledger.write.
    files: ['apps/payments-api/src/**'],
    ignores: ['apps/payments-api/src/core/ledger/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [noDeepLibImports, otherApp('webhook-dispatcher'), ledgerInternals],
          paths: [noWriteTransaction],
        },
      ],
      'no-restricted-syntax': [
        'error',
        ...noOtherTransactions,
        ...noMoneyTableWrites(),
        ...noDeliveryStateWrites,
        noDynamicImports,
      ],
    },
  },
  ...MONEY_TABLE_WRITES_ALLOWED.map(({ file, tables, forms, recordsListenAttempts = false }) => ({
    files: [`apps/payments-api/src/${file}`],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...noOtherTransactions,
        ...noMoneyTableWrites(forms.map(statementForm)),
        ...(recordsListenAttempts
          ? [
              ...runWhereWritten([...tables, 'webhook_attempts']),
              ...tableWrites(CHANGE_VERBS, ['webhook_attempts'], noAttemptWrites[0].message),
              ...noDeliveryChanges,
              ...noDeliveryInserts,
            ]
          : [...runWhereWritten(tables), ...noDeliveryStateWrites]),
        noDynamicImports,
      ],
    },
  })),
  {
    // The ledger writes money and state, not delivery state: the rules above hold in it too ...
    files: ['apps/payments-api/src/core/ledger/**'],
    rules: { 'no-restricted-syntax': ['error', ...noDeliveryStateWrites] },
  },
  {
    // ... but its event writer inserts the deliveries an event owes, with the event (fanOutSql).
    files: ['apps/payments-api/src/core/ledger/event-writer.ts'],
    rules: { 'no-restricted-syntax': ['error', ...noAttemptWrites, ...noDeliveryChanges] },
  },
  {
    // Transactions over rows that move no money and no payment state keep inTransaction (ADR 0014):
    // audited changes, auth failure and password reset counts, voucher loads and PIN rekeying, the relay's claim of an outbox batch.
    files: [
      // A change to keys, endpoints, secrets or members commits with its audit entry, or not at all.
      'apps/payments-api/src/core/audit/audit-log.ts',
      'apps/payments-api/src/accounts/auth-throttle/auth-failures.repository.ts',
      // Password reset requests are counted under a lock of the address until the request is written.
      'apps/payments-api/src/accounts/console-logins/password-resets.repository.ts',
      'apps/payments-api/src/money/vouchers/vouchers.repository.ts',
      'apps/payments-api/src/webhooks/outbox/outbox.repository.ts',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [noDeepLibImports, otherApp('webhook-dispatcher'), ledgerInternals] },
      ],
    },
  },
  {
    // The ledger depends on libs and its own files only: features call it, never the other way round.
    files: ['apps/payments-api/src/core/ledger/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [noDeepLibImports, otherApp('webhook-dispatcher'), ledgerOutwards] },
      ],
    },
  },
  roomRules('platform', [noRoomFromPlatform]),
  roomRules('core', [noOtherRoomFromCore]),
  roomRules('money', [noSurfaces, throughDoors('money'), throughCoreDoors('money')]),
  roomRules('webhooks', [noSurfaces, throughDoors('webhooks'), throughCoreDoors('webhooks')]),
  roomRules('accounts', [noSurfaces, throughDoors('accounts'), throughCoreDoors('accounts')]),
  roomRules('surfaces', [noLedgerInSurfaces, throughDoorsFrom('Surfaces reach')], {
    paths: noPersistenceInSurfaces,
  }),
  {
    // The composition root (and the bench's app) wires features by their doors too; like the rooms' rules,
    // typescript-eslint's copy of the rule, so the ledger's rules above still hold here.
    files: ['apps/payments-api/src/*.ts', 'apps/payments-api/src/bench/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: [throughDoorsFrom('The composition root wires')] },
      ],
    },
  },
  {
    files: ['apps/webhook-dispatcher/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [noDeepLibImports, otherApp('payments-api')] }] },
  },
  {
    files: ['libs/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [noApps, { group: ['@payhook/*/**'], message: noDeepLibImports.message }] },
      ],
    },
  },
  {
    files: ['libs/contracts/**', 'libs/signing/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [noApps, ...framework, { group: ['@payhook/*'], message: 'contracts and signing stand alone.' }] },
      ],
    },
  },
  {
    // The merchant SDK is published on its own (@payhook/sdk, npm pack) and runs in any Node server: node
    // built-ins and its own files only. Its copies of contracts and signing are held equal by its specs.
    files: ['libs/sdk/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            noApps,
            { regex: '^\\.\\./', message: 'The sdk package is built from its src/ alone: no import out of it.' },
            ...frameworkOf('The sdk (usable without Nest) must'),
            {
              group: ['@payhook/*', '@payhook/*/**'],
              message: 'The sdk is published alone: no @payhook/* import (copies live in payhook-contract.ts).',
            },
          ],
        },
      ],
    },
  },
  {
    // The developer CLI starts in milliseconds and reaches payhook only through the SDK:
    // no Nest, no database, no other lib.
    files: ['apps/cli/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            noDeepLibImports,
            ...frameworkOf('The CLI (it must start fast, without Nest) must'),
            { group: ['**/apps/**', '**/libs/**'], message: 'The CLI uses payhook only through @payhook/sdk.' },
            { group: ['@payhook/*', '!@payhook/sdk'], message: 'The CLI uses payhook only through @payhook/sdk.' },
          ],
        },
      ],
    },
  },
  {
    // The example merchant is what a merchant writes: it reaches payhook only through the public SDK.
    files: ['examples/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/apps/**', '**/libs/**'], message: 'The example uses payhook only through @payhook/sdk.' },
            { group: ['@payhook/*', '!@payhook/sdk'], message: 'The example uses payhook only through @payhook/sdk.' },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.spec.ts', '**/*.integration-spec.ts', 'test/**'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/unbound-method': 'off',
      'no-restricted-imports': 'off',
    },
  },
);
