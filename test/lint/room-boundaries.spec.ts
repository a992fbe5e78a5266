import { describeBoundary, type BoundaryCase } from '../support/lint';

/**
 * The rooms of payments-api (docs/architecture.md) are held by `npm run lint`: each case lints a short
 * text as if it were a real file of the app, with the repository's own config.
 */
const SRC = 'apps/payments-api/src';

const cases: BoundaryCase[] = [
  {
    name: 'platform importing a room',
    filePath: `${SRC}/platform/openapi/schema-builders.ts`,
    text: `import { MAX_FEE_BPS } from '../../core/ledger';\nexport const max = MAX_FEE_BPS;\n`,
    fails: /platform\/ knows no domain/,
  },
  {
    name: 'a feature importing a surface',
    filePath: `${SRC}/webhooks/notices/notice-email.ts`,
    text: `import { formatInZone } from '../../surfaces/console/zoned-time';\nexport const format = formatInZone;\n`,
    fails: /Nothing imports surfaces\//,
  },
  {
    name: 'core importing a surface',
    filePath: `${SRC}/core/audit/audit-log.ts`,
    text: `import { ConsoleModule } from '../../surfaces/console/console.module';\nexport const m = ConsoleModule;\n`,
    fails: /core\/ is what the features stand on/,
  },
  {
    name: 'a feature reaching into another room past its door',
    filePath: `${SRC}/accounts/merchants/merchants.admin.controller.ts`,
    text: `import { PaymentsService } from '../../money/payments/payments.service';\nexport const s = PaymentsService;\n`,
    fails: /accounts\/ reaches a feature of another room through its index\.ts only/,
  },
  {
    name: 'a console page running SQL of its own',
    filePath: `${SRC}/surfaces/console/payments/console-payments.service.ts`,
    text: `import { sqlRows } from '@payhook/persistence';\nexport const rows = sqlRows;\n`,
    fails: /Surfaces hold no SQL/,
  },
  {
    name: 'a console page reaching into the ledger',
    filePath: `${SRC}/surfaces/console/payments/console-payments.view.ts`,
    text: `import { effectiveStatus } from '../../../core/ledger';\nexport const status = effectiveStatus;\n`,
    fails: /the money rules they show come through a feature's door/,
  },
  {
    name: 'the payment screen reaching into the ledger',
    filePath: `${SRC}/surfaces/pay-screen/pay-screen.service.ts`,
    text: `import { Ledger } from '../../core/ledger';\nexport const ledger = Ledger;\n`,
    fails: /the money rules they show come through a feature's door/,
  },
  {
    name: 'the health routes asking the database themselves',
    filePath: `${SRC}/surfaces/health/health.controller.ts`,
    text: `import { DataSource } from 'typeorm';\nexport const db = DataSource;\n`,
    fails: /Surfaces hold no SQL/,
  },
  {
    name: "a console page using a money rule through the feature's door",
    filePath: `${SRC}/surfaces/console/payments/console-payments.view.ts`,
    text: `import { effectiveStatus } from '../../../money/payments';\nexport const status = effectiveStatus;\n`,
    fails: null,
  },
  {
    name: 'a feature reaching past a door by a roundabout path',
    filePath: `${SRC}/accounts/merchants/merchants.admin.controller.ts`,
    text: `import { PaymentsService } from './../../accounts/../money/payments/payments.service';\nexport const s = PaymentsService;\n`,
    fails: /accounts\/ reaches a feature of another room through its index\.ts only/,
  },
  {
    name: 'a feature re-exporting a file of another room',
    filePath: `${SRC}/webhooks/events/events.service.ts`,
    text: `export { PaymentsService } from '../../money/payments/payments.service';\n`,
    fails: /webhooks\/ reaches a feature of another room through its index\.ts only/,
  },
  {
    name: 'a feature loading another room with a dynamic import',
    filePath: `${SRC}/webhooks/events/events.service.ts`,
    text: `export const load = () => import('../../money/payments/payments.service');\n`,
    fails: /a dynamic import\(\) gets round the rooms/,
  },
  {
    name: 'core importing a domain room',
    filePath: `${SRC}/core/idempotency/idempotency-key.ts`,
    text: `import type { PaymentRecord } from '../../money/payments';\nexport type P = PaymentRecord;\n`,
    fails: /core\/ is what the features stand on/,
  },
  {
    name: 'a console page with a TypeORM connection',
    filePath: `${SRC}/surfaces/console/payments/console-payments.service.ts`,
    text: `import { DataSource } from 'typeorm';\nexport const d = DataSource;\n`,
    fails: /Surfaces hold no SQL/,
  },
  {
    name: 'a feature naming the door by its file',
    filePath: `${SRC}/accounts/merchants/merchants.admin.controller.ts`,
    text: `import { PaymentsService } from '../../money/payments/index';\nexport const s = PaymentsService;\n`,
    fails: null,
  },
  {
    name: 'a feature using another room through the door',
    filePath: `${SRC}/accounts/merchants/merchants.admin.controller.ts`,
    text: `import { PaymentsService } from '../../money/payments';\nexport const s = PaymentsService;\n`,
    fails: null,
  },
  {
    name: 'a feature using a file of its own room',
    filePath: `${SRC}/money/refunds/refunds.service.ts`,
    text: `import { PaymentsService } from '../payments/payments.service';\nexport const s = PaymentsService;\n`,
    fails: null,
  },
  {
    name: 'the payment screen reaching into a feature past its door',
    filePath: `${SRC}/surfaces/pay-screen/pay-screen.service.ts`,
    text: `import { DepositsService } from '../../money/deposits/deposits.service';\nexport const s = DepositsService;\n`,
    fails: /Surfaces reach a feature through its index\.ts only/,
  },
  {
    name: 'a console page reaching into a feature past its door',
    filePath: `${SRC}/surfaces/console/team/console-team.controller.ts`,
    text: `import { TeamService } from '../../../accounts/team/team.service';\nexport const s = TeamService;\n`,
    fails: /Surfaces reach a feature through its index\.ts only/,
  },
  {
    name: 'a console page reaching into a core feature past its door',
    filePath: `${SRC}/surfaces/console/audit/console-audit.controller.ts`,
    text: `import { AuditLog } from '../../../core/audit/audit-log';\nexport const log = AuditLog;\n`,
    fails: /Surfaces reach a feature through its index\.ts only/,
  },
  {
    name: 'a surface reaching past a door by a roundabout path',
    filePath: `${SRC}/surfaces/pay-screen/pay-screen.service.ts`,
    text: `import { DepositsService } from './../../surfaces/../money/deposits/deposits.service';\nexport const s = DepositsService;\n`,
    fails: /Surfaces reach a feature through its index\.ts only/,
  },
  {
    name: 'a surface re-exporting a file inside a feature',
    filePath: `${SRC}/surfaces/console/shared/console-session.guard.ts`,
    text: `export { roleAllows } from '../../../accounts/team/member-role';\n`,
    fails: /Surfaces reach a feature through its index\.ts only/,
  },
  {
    name: 'a surface reaching into a file of the ledger (its own rule, once)',
    filePath: `${SRC}/surfaces/pay-screen/pay-screen.service.ts`,
    text: `import { Ledger } from '../../core/ledger/ledger';\nexport const ledger = Ledger;\n`,
    fails: /the money rules they show come through a feature's door/,
  },
  {
    name: 'the payment screen using a feature through its door',
    filePath: `${SRC}/surfaces/pay-screen/pay-screen.service.ts`,
    text: `import { DepositsService } from '../../money/deposits';\nexport const s = DepositsService;\n`,
    fails: null,
  },
  {
    name: 'a console page using features through their doors',
    filePath: `${SRC}/surfaces/console/team/console-team.controller.ts`,
    text: `import { AuditLog } from '../../../core/audit';\nimport { TeamService } from '../../../accounts/team';\nexport const s = [AuditLog, TeamService];\n`,
    fails: null,
  },
  {
    name: 'a surface using a file of its own',
    filePath: `${SRC}/surfaces/console/team/console-team.controller.ts`,
    text: `import { renderConsoleError } from '../shared/console-layout.view';\nexport const r = renderConsoleError;\n`,
    fails: null,
  },
  {
    name: 'a feature reaching into the audit log past its door',
    filePath: `${SRC}/money/refunds/refunds.service.ts`,
    text: `import { AuditLog } from '../../core/audit/audit-log';\nexport const log = AuditLog;\n`,
    fails: /money\/ reaches a feature of core\/ through its index\.ts only/,
  },
  {
    name: 'a feature reaching into idempotency past its door',
    filePath: `${SRC}/webhooks/endpoints/webhook-endpoints.service.ts`,
    text: `import { parseIdempotencyKey } from '../../core/idempotency/idempotency-key';\nexport const parse = parseIdempotencyKey;\n`,
    fails: /webhooks\/ reaches a feature of core\/ through its index\.ts only/,
  },
  {
    name: 'a feature using core features through their doors',
    filePath: `${SRC}/accounts/team/team.service.ts`,
    text: `import { AuditLog } from '../../core/audit';\nimport { IdempotencyModule } from '../../core/idempotency';\nexport const s = [AuditLog, IdempotencyModule];\n`,
    fails: null,
  },
  {
    name: 'the composition root wiring a feature past its door',
    filePath: `${SRC}/payments-api.module.ts`,
    text: `import { OutboxModule } from './webhooks/outbox/outbox.module';\nexport const m = OutboxModule;\n`,
    fails: /The composition root wires a feature through its index\.ts only/,
  },
  {
    name: 'the composition root wiring a feature through its door',
    filePath: `${SRC}/payments-api.module.ts`,
    text: `import { OutboxModule } from './webhooks/outbox';\nexport const m = OutboxModule;\n`,
    fails: null,
  },
  {
    name: 'platform using another part of platform',
    filePath: `${SRC}/platform/openapi/schema-builders.ts`,
    text: `import { formatInZone } from '../time/zoned-time';\nexport const format = formatInZone;\n`,
    fails: null,
  },
];

describeBoundary('the rooms of payments-api (eslint.config.mjs)', cases, [
  '@typescript-eslint/no-restricted-imports',
  'no-restricted-syntax',
]);
