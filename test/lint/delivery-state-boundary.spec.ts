import { describeBoundary, type BoundaryCase } from '../support/lint';

/**
 * docs/architecture.md: the webhook-dispatcher alone changes webhook_deliveries once they exist and owns
 * webhook_attempts. `npm run lint` holds it in payments-api: each case lints a short text as if it were
 * a real file of the app (the file itself is not touched) with the repository's own config.
 */
const SRC = 'apps/payments-api/src';
const ATTEMPTS = /The webhook-dispatcher owns webhook_attempts/;
const CHANGES = /The webhook-dispatcher alone changes webhook_deliveries/;
const INSERTS = /payments-api writes a delivery only with the event that owes it/;
const MONEY = /Only src\/core\/ledger\/ writes payments/;

/** A statement runner, so a case can send its SQL where it writes it (as the allow-listed files must). */
const RUNNER = `type Sql = (text: string, params: unknown[]) => Promise<unknown>;\n`;

const cases: BoundaryCase[] = [
  {
    name: 'a feature ending deliveries of an endpoint it deletes',
    filePath: `${SRC}/webhooks/endpoints/webhook-endpoints.repository.ts`,
    text: `export const statement = \`UPDATE webhook_deliveries SET status = 'failed' WHERE endpoint_id = $1\`;\n`,
    fails: CHANGES,
  },
  {
    name: 'a feature purging attempts',
    filePath: `${SRC}/webhooks/events/events.repository.ts`,
    text: `export const statement = 'DELETE FROM webhook_attempts WHERE started_at < $1';\n`,
    fails: ATTEMPTS,
  },
  {
    name: 'a feature deleting deliveries (a template over several lines)',
    filePath: `${SRC}/webhooks/events/events.repository.ts`,
    text: `export const statement = \`\n  delete from public.webhook_deliveries\n  WHERE event_id = $1\`;\n`,
    fails: CHANGES,
  },
  {
    name: 'the ledger recording an attempt',
    filePath: `${SRC}/core/ledger/event-writer.ts`,
    text: `export const statement = 'INSERT INTO webhook_attempts (id, event_id) VALUES ($1, $2)';\n`,
    fails: ATTEMPTS,
  },
  {
    name: 'the ledger making failed deliveries pending again (a recover)',
    filePath: `${SRC}/core/ledger/event-writer.ts`,
    text: `export const statement = \`UPDATE webhook_deliveries d SET status = 'pending' WHERE d.status = 'failed'\`;\n`,
    fails: CHANGES,
  },
  {
    name: 'the ledger inserting deliveries outside the event writer',
    filePath: `${SRC}/core/ledger/refund-writes.ts`,
    text: `export const statement = 'INSERT INTO webhook_deliveries (event_id, endpoint_id) VALUES ($1, $2)';\n`,
    fails: INSERTS,
  },
  {
    name: 'a feature inserting deliveries',
    filePath: `${SRC}/webhooks/events/events.repository.ts`,
    text: `export const statement = 'INSERT INTO webhook_deliveries (event_id, endpoint_id) VALUES ($1, $2)';\n`,
    fails: INSERTS,
  },
  {
    name: 'a file allow-listed for money writes changing deliveries (that list lifts the money rule only)',
    filePath: `${SRC}/webhooks/outbox/outbox.repository.ts`,
    text: `export const statement = 'UPDATE webhook_deliveries SET lane_due_at = NULL WHERE endpoint_id = $1';\n`,
    fails: CHANGES,
  },
  {
    name: 'the listen door deleting attempts',
    filePath: `${SRC}/webhooks/deliveries/listen-attempts.ts`,
    text: `${RUNNER}export const purge = (sql: Sql) => sql('DELETE FROM webhook_attempts WHERE endpoint_id = $1', []);\n`,
    fails: ATTEMPTS,
  },
  {
    name: 'the listen door changing a delivery',
    filePath: `${SRC}/webhooks/deliveries/listen-attempts.ts`,
    text: `export const statement = \`UPDATE webhook_deliveries SET status = 'succeeded' WHERE event_id = $1\`;\n`,
    fails: CHANGES,
  },
  {
    name: 'the listen door moving a payment (it may count attempts on an event, nothing more)',
    filePath: `${SRC}/webhooks/deliveries/listen-attempts.ts`,
    text: `export const statement = \`UPDATE payments SET status = 'completed' WHERE id = $1\`;\n`,
    fails: MONEY,
  },
  {
    name: 'the listen door inserting an event',
    filePath: `${SRC}/webhooks/deliveries/listen-attempts.ts`,
    text: `${RUNNER}export const insert = (sql: Sql) => sql('INSERT INTO events (id) VALUES ($1)', []);\n`,
    fails: MONEY,
  },
  {
    name: "the event writer inserting an event's deliveries (the fan-out)",
    filePath: `${SRC}/core/ledger/event-writer.ts`,
    text: `export const statement = \`INSERT INTO webhook_deliveries (event_id, endpoint_id, status) SELECT $1, $2, 'pending'\`;\n`,
    fails: null,
  },
  {
    name: 'the listen door recording the attempt a session reports, counted on its event',
    filePath: `${SRC}/webhooks/deliveries/listen-attempts.ts`,
    text:
      `${RUNNER}export const count = (sql: Sql) => sql('UPDATE events SET attempt_count = attempt_count + 1, last_attempt_at = $5 WHERE id = $1', []);\n` +
      `export const insert = (sql: Sql) => sql('INSERT INTO webhook_attempts (id, event_id, endpoint_id) VALUES ($1, $2, $3)', []);\n`,
    fails: null,
  },
  {
    name: 'the listen door handing its attempt insert to another file as text',
    filePath: `${SRC}/webhooks/deliveries/listen-attempts.ts`,
    text: `export const insert = 'INSERT INTO webhook_attempts (id, event_id, endpoint_id) VALUES ($1, $2, $3)';\n`,
    fails: /An allow-listed write of events, webhook_attempts is run where it is written/,
  },
  {
    name: 'a feature reading deliveries and attempts',
    filePath: `${SRC}/webhooks/events/events.repository.ts`,
    text:
      `export const deliveries = "SELECT status FROM webhook_deliveries WHERE event_id = $1 AND status = 'pending'";\n` +
      `export const attempts = 'SELECT number FROM webhook_attempts a WHERE a.event_id = $1';\n`,
    fails: null,
  },
];

describeBoundary('the delivery state boundary (eslint.config.mjs)', cases, ['no-restricted-syntax']);
