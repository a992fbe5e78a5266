import type { INestApplication } from '@nestjs/common';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { PaymentExpirySweeper } from '../../apps/payments-api/src/money/payments/payment-expiry.sweeper';
import { IdempotencyKeyPurger } from '../../apps/payments-api/src/core/idempotency/idempotency-key.purger';
import { OutboxPurger } from '../../apps/payments-api/src/webhooks/outbox/outbox.purger';
import { WebhookAttemptsPurger } from '../../apps/webhook-dispatcher/src/attempts/webhook-attempts.purger';
import { DeliveryStateSweeper } from '../../apps/webhook-dispatcher/src/deliveries/delivery-state.sweeper';
import { WebhookNoticesSender } from '../../apps/payments-api/src/webhooks/notices/webhook-notices.sender';
import { EscrowAutoConfirmTask } from '../../apps/payments-api/src/money/escrow/escrow-auto-confirm.task';
import { EscrowService } from '../../apps/payments-api/src/money/escrow/escrow.service';
import { approvedMerchant, ConsoleClient } from '../support/console-client';
import { isolatedServices, type IsolatedServices } from '../support/isolated-services';
import { pollUntil } from '../support/poll-until';
import { PaymentsApiHarness, paymentBody } from '../support/payments-api.harness';
import { startDispatcher } from '../support/webhook-dispatcher.harness';
import { WebhookReceiver } from '../support/webhook-receiver';
import { timeFor } from '../support/time-budget';
import { completedPayment, eventUntil, respondPerPayment } from '../support/webhook-scenario';

// Two apps, and the seeded history they read and sweep.
jest.setTimeout(timeFor({ database: 1, seed: 1, app: 2 }));

/** Tables that grow with the business; a read of any of them must be bounded by an index. */
/** The connections whose statements are checked: both apps' pools. */
const APPS = new Set(['payhook-payments-api', 'payhook-webhook-dispatcher']);
const LARGE_TABLES = new Set([
  'payments',
  'events',
  'webhook_deliveries',
  'webhook_attempts',
  'settlements',
  'outbox',
  'refunds',
  'cash_receipts',
  'audit_log',
  'webhook_notices',
]);
/** Refunds seeded for the big merchant's completed payments, one in ten pending (the operator's queue). */
const SEEDED_REFUNDS = 30_000;
/** refund.succeeded events of the big merchant's oldest succeeded refunds: rare beside payment.completed, and old. */
const SEEDED_REFUND_EVENTS = 2_500;
/** Reading or sorting more rows than this to answer one statement reads history, not a page. */
const MAX_WASTED_ROWS = 2_000;
const SEEDED_PAYMENTS = 200_000;
/** Issue receipts of the big merchant's completed payments, one in ten pending (the operator's queue). */
const SEEDED_ESCROWS = 20_000;
const SEEDED_CASH_RECEIPTS = 30_000;
/** A year and more of the big merchant's audit log (issue 29: its list stays index-bounded at 1M rows). */
const SEEDED_AUDIT_ENTRIES = 1_000_000;

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  Plans?: PlanNode[];
}

/** Why a statement's cost grows with rows it does not return; empty when it is bounded. */
function unboundedParts(node: PlanNode): string[] {
  const own: string[] = [];
  const loops = node['Actual Loops'] ?? 1;
  if (node['Node Type'].includes('Seq Scan') && LARGE_TABLES.has(node['Relation Name'] ?? '')) {
    own.push(`sequential scan of ${node['Relation Name']}`);
  }
  if (node['Node Type'] === 'Sort' && (node['Actual Rows'] ?? 0) * loops > MAX_WASTED_ROWS) {
    own.push(`sort of ${node['Actual Rows']! * loops} rows`);
  }
  if ((node['Rows Removed by Filter'] ?? 0) * loops > MAX_WASTED_ROWS) {
    own.push(`${node['Rows Removed by Filter']! * loops} rows read and dropped by a filter`);
  }
  return [...own, ...(node.Plans ?? []).flatMap(unboundedParts)];
}

/**
 * The plan as run (EXPLAIN ANALYZE in a transaction rolled back, so writes change nothing). A write
 * that cannot run again with the same values (a unique id) is only planned.
 */
async function analyze(db: Client, text: string, values: unknown[], format: 'JSON' | 'TEXT'): Promise<unknown[]> {
  const explain = async (options: string) =>
    (await db.query(`EXPLAIN (${options}) ${text}`, values)).rows.map(
      (row: { 'QUERY PLAN': unknown }) => row['QUERY PLAN'],
    );
  await db.query('BEGIN');
  try {
    return await explain(`ANALYZE, FORMAT ${format}`);
  } catch {
    await db.query('ROLLBACK');
    await db.query('BEGIN');
    return await explain(`FORMAT ${format}`);
  } finally {
    await db.query('ROLLBACK');
  }
}

/**
 * docs/performance.md: every statement the API and its background jobs run, captured while they
 * run against 200,000 payments, is explained; none may scan a large table or sort its history.
 */
describe('query plans on a large database', () => {
  let services: IsolatedServices;
  let api: PaymentsApiHarness;
  let dispatcher: INestApplication;
  let receiver: WebhookReceiver;
  const captured = new Map<string, unknown[]>();
  const originalQuery = Client.prototype.query;

  beforeAll(async () => {
    services = await isolatedServices('plans');
    const seed = new Client({ connectionString: services.env.DATABASE_URL });
    // Unheard, a connection ended under it (the teardown of a timed-out run) would be a second failure.
    seed.on('error', () => undefined);
    await seed.connect();
    const sql = readFileSync(join(__dirname, '../../bench/scale-seed.sql'), 'utf8')
      .replaceAll('$1', String(SEEDED_PAYMENTS))
      .replaceAll('$2', '20')
      .replaceAll('$3', '0.5');
    await seed.query(`BEGIN; ${sql}; COMMIT`);
    await seed.query(
      `WITH picked AS (
         SELECT id, merchant_id, livemode, order_id, completed_at, row_number() OVER (ORDER BY id) AS n
         FROM payments WHERE status = 'completed' AND completed_at IS NOT NULL LIMIT $1
       ), held AS (
         UPDATE payments p SET refund_held_amount = 1, refunded_amount = CASE WHEN picked.n % 10 = 0 THEN 0 ELSE 1 END
         FROM picked WHERE p.id = picked.id RETURNING 1
       )
       INSERT INTO refunds (id, payment_id, merchant_id, livemode, order_id, amount, currency, status, created_at,
                            succeeded_at, vat, supplied_amount)
       SELECT 'rfd_' || lpad(n::text, 24, '0'), id, merchant_id, livemode, order_id, 1, 'KRW',
              CASE WHEN n % 10 = 0 THEN 'pending' ELSE 'succeeded' END, completed_at + interval '1 minute',
              CASE WHEN n % 10 = 0 THEN NULL ELSE completed_at + interval '1 minute' END,
              -- A succeeded refund's VAT split (₩1 of a taxable payment: no VAT), as refunds_vat_check wants.
              CASE WHEN n % 10 = 0 THEN NULL ELSE 0 END, CASE WHEN n % 10 = 0 THEN NULL ELSE 1 END
       FROM picked`,
      [SEEDED_REFUNDS],
    );
    // A type filter walked along the merchant's list would read past every newer payment.completed
    // event, and a type and paymentId walked along the type's range past every other refund event.
    await seed.query(
      `INSERT INTO events (id, merchant_id, livemode, type, payment_id, refund_id, body, created_at, delivery_status)
       SELECT event_id, merchant_id, livemode, 'refund.succeeded', payment_id, id,
              json_build_object('id', event_id, 'type', 'refund.succeeded', 'createdAt', at,
                                'data', json_build_object('refundId', id, 'paymentId', payment_id, 'orderId', order_id,
                                                          'amount', amount, 'currency', currency, 'status', status,
                                                          'reason', reason, 'succeededAt', at))::text,
              succeeded_at, 'succeeded'
       FROM (SELECT refunds.*,
                    'evt_refund' || lpad(row_number() OVER (ORDER BY created_at, id)::text, 15, '0') AS event_id,
                    to_char(succeeded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at
             FROM refunds WHERE merchant_id = $1 AND status = 'succeeded'
             ORDER BY created_at, id LIMIT $2) oldest`,
      ['mch_scale0000000000000001', SEEDED_REFUND_EVENTS],
    );
    // Ten actors and every kind of change, one entry every 40 seconds over more than a year.
    await seed.query(
      `INSERT INTO audit_log (id, merchant_id, actor, action, target, client_address, created_at)
       SELECT 'aud_' || lpad(n::text, 24, '0'), $1, 'member' || (n % 10) || '@shop.example',
              (ARRAY['api_key.created', 'api_key.rolled', 'webhook_endpoint.updated', 'refund.created',
                     'payment.canceled', 'member.invited'])[1 + n % 6],
              'key_' || lpad(n::text, 24, '0'), '203.0.113.7', now() - n * interval '40 seconds'
       FROM generate_series(1, $2) AS n`,
      ['mch_scale0000000000000001', SEEDED_AUDIT_ENTRIES],
    );
    // Cash receipts of completed payments (each its own, so that one payment's are few), a tenth pending.
    await seed.query(
      `INSERT INTO cash_receipts (id, merchant_id, livemode, payment_id, refund_id, order_id, transaction_type, type,
                                  identity_number_sealed, identity_number_masked, self_issued, amount, tax_free_amount,
                                  vat, supplied_amount, status, issue_number, failure_reason, created_at, issued_at,
                                  failed_at)
       SELECT 'crc_' || lpad(n::text, 24, '0'), merchant_id, livemode, id, NULL, order_id, 'issue', 'income_deduction',
              NULL, '******1234', true, amount, 0, (amount + 5) / 11, amount - (amount + 5) / 11,
              CASE WHEN n % 10 = 0 THEN 'pending' ELSE 'issued' END,
              CASE WHEN n % 10 = 0 THEN NULL ELSE lpad(n::text, 9, '0') END, NULL,
              completed_at, CASE WHEN n % 10 = 0 THEN NULL ELSE completed_at END, NULL
       FROM (SELECT p.*, row_number() OVER (ORDER BY id DESC) AS n FROM payments p
             WHERE status = 'completed' AND completed_at IS NOT NULL AND refund_held_amount = 0 LIMIT $1) picked`,
      [SEEDED_CASH_RECEIPTS],
    );
    // Escrows of completed payments, shipped, each with its link's digest, confirming by themselves in the
    // weeks ahead (none due yet): the auto-confirm task's range and the buyer's page's lookup stay narrow.
    await seed.query(
      `UPDATE payments SET escrow_status = 'shipped', escrow_buyer_email = 'buyer@example.com',
         escrow_carrier = 'CJ', escrow_tracking_number = 'T-' || id, escrow_shipped_at = completed_at,
         escrow_auto_confirm_at = now() + (1 + abs(hashtext(id)) % 30) * interval '1 day',
         escrow_token_digest = sha256(convert_to(id, 'UTF8'))
       WHERE id IN (SELECT id FROM payments WHERE status = 'completed' AND completed_at IS NOT NULL
                    ORDER BY id LIMIT $1)`,
      [SEEDED_ESCROWS],
    );
    // A year of notices already sent, and a few due: the sender's claim reads the unsent ones only.
    await seed.query(
      `INSERT INTO webhook_notices (endpoint_id, merchant_id, livemode, kind, episode, url, created_at, send_after,
                                    sent_at)
       SELECT 'we_plans' || (n % 500), $1, true, (ARRAY['failing', 'disabled', 'recovered'])[1 + n % 3],
              now() - n * interval '10 minutes', 'https://shop.example/hooks', now() - n * interval '10 minutes',
              now() - n * interval '10 minutes', CASE WHEN n > 3 THEN now() - n * interval '10 minutes' END
       FROM generate_series(1, 50000) AS n`,
      ['mch_scale0000000000000001'],
    );
    await seed.query('ANALYZE');
    await seed.end();
    api = await PaymentsApiHarness.start({ ...services.env, RATE_LIMIT_PER_SECOND: '0' });
    dispatcher = await startDispatcher({ ...services.env, WEBHOOK_RETRY_SCHEDULE: '100ms,100ms,100ms,100ms,100ms' });
    receiver = await WebhookReceiver.start();

    // Every statement of the API's own connections from here on (not this test's lookups).
    const capture = function (
      this: Client & { connectionParameters?: { application_name?: string } },
      ...args: unknown[]
    ) {
      const [config, values] = args as [string | { text: string; values?: unknown[] }, unknown[] | undefined];
      const text = typeof config === 'string' ? config : config?.text;
      const ours = APPS.has(this.connectionParameters?.application_name ?? '');
      if (ours && typeof text === 'string' && !captured.has(text)) {
        captured.set(text, (typeof config === 'string' ? values : config.values) ?? []);
      }
      return (originalQuery as (...a: unknown[]) => unknown).apply(this, args);
    };
    Client.prototype.query = capture as typeof Client.prototype.query;
  });

  afterAll(async () => {
    Client.prototype.query = originalQuery;
    await dispatcher?.close();
    await receiver?.stop();
    await api?.stop();
    await services?.drop();
  });

  it('reads every list, page, lookup and background sweep through an index', async () => {
    const big = 'mch_scale0000000000000001';
    const shop = await approvedMerchant(api);
    const [login] = await api.sql<{ password_hash: string }>(
      `SELECT password_hash FROM merchant_members WHERE merchant_id = $1`,
      [shop.merchantId],
    );
    const email = 'scale@shop.example';
    // The scale merchant's owner, with the same password as the approved shop's.
    await api.sql(
      `INSERT INTO merchant_members (id, merchant_id, email, password_hash, role)
       VALUES ('mem_scale00000000000000001', $1, $2, $3, 'owner')`,
      [big, email, login.password_hash],
    );
    const { key } = await api.issueKey(big, 'live');
    const merchant = { key };
    const consoleUser = await ConsoleClient.login(api, email);

    const lists = [
      '',
      '?limit=100',
      ...['pending', 'completed', 'failed', 'canceled', 'expired', 'failed,canceled,expired', 'pending,expired'].map(
        (status) => `?status=${status}`,
      ),
      '?orderId=order-1000',
      '?customerId=cust-42',
      '?customerId=cust-42&status=canceled',
      '?status=expired&createdFrom=2026-01-01T00:00:00Z&createdTo=2026-06-01T00:00:00Z',
    ];
    for (const query of lists) await api.as(merchant).get(`/v1/payments${query}`).expect(200);
    // The console's list and search: one status, calendar days in the merchant's zone.
    const consoleSearches = [
      '',
      ...['pending', 'completed', 'failed', 'canceled', 'expired'].map((status) => `&status=${status}`),
      '&orderId=order-1000',
      '&customerId=cust-42&status=failed',
      '&status=canceled&createdFrom=2026-01-01&createdTo=2026-05-31',
    ];
    for (const search of consoleSearches) await consoleUser.get(`/console/payments?mode=live${search}`).expect(200);
    // A cursor 100 pages deep, rare and common status alike.
    for (const status of ['completed', 'canceled']) {
      let cursor: string | null = null;
      for (let page = 0; page < 100; page++) {
        const response = await api
          .as(merchant)
          .get(`/v1/payments?status=${status}&limit=100${cursor ? `&cursor=${cursor}` : ''}`)
          .expect(200);
        cursor = response.body.nextCursor as string | null;
        if (!cursor) break;
      }
    }
    // A forged cursor shaped like a real one costs one index lookup before its 400.
    const forged = Buffer.from(JSON.stringify(['2026-03-01T00:00:00.000Z', `pay_${'A'.repeat(24)}`])).toString(
      'base64url',
    );
    await api.as(merchant).get(`/v1/payments?status=canceled&cursor=${forged}`).expect(400);
    const [payment] = await api.sql<{ id: string }>(
      `SELECT id FROM payments WHERE merchant_id = $1 AND status = 'completed' LIMIT 1`,
      [big],
    );
    await api.as(merchant).get(`/v1/payments/${payment.id}`).expect(200);
    await consoleUser.get(`/console/payments/${payment.id}?mode=live`).expect(200);
    const events = await api.as(merchant).get('/v1/events?limit=100').expect(200);
    await api.as(merchant).get(`/v1/events/${events.body.data[0].id}`).expect(200);
    await api.as(merchant).get(`/v1/events?paymentId=${payment.id}`).expect(200);
    // Settlements in completion order: a page, the page after its cursor, and one day's CSV.
    const settlements = await api.as(merchant).get('/v1/settlements?limit=100').expect(200);
    expect(settlements.body.nextCursor).toEqual(expect.any(String));
    await api.as(merchant).get(`/v1/settlements?limit=100&cursor=${settlements.body.nextCursor}`).expect(200);
    await api.as(merchant).get(`/v1/settlements/export?date=${settlements.body.data[0].salesDate}`).expect(200);
    await api.as(merchant).get('/v1/settlements?from=2026-03-01&to=2026-03-31').expect(200);
    await consoleUser.get('/console/settlements?mode=live').expect(200);
    // One date over more than a page: its totals, added up by the database.
    await consoleUser.get(`/console/settlements?mode=live&date=${settlements.body.data[0].salesDate}`).expect(200);
    await api.admin().get('/admin/v1/reviews').expect(200);
    // The audit log: newest first, by actor, by action, both, and a page far down.
    const auditPages = [
      '',
      '?actor=member3%40shop.example',
      '?action=refund.created',
      '?actor=member4%40shop.example&action=api_key.rolled',
      `?before=${encodeURIComponent(`${new Date(Date.now() - 300 * 86_400_000).toISOString()}~aud_${'0'.repeat(24)}`)}`,
    ];
    for (const query of auditPages) await consoleUser.get(`/console/audit${query}`).expect(200);
    // Refunds: a new one (the guarded reserve, its row, the key claim), the lists with every filter,
    // a deep cursor, a forged one, the operator's queue and both of its moves.
    const refundAccount = { bank: 'KB', accountNumber: '110-1', holderName: 'Scale' };
    const [refundable] = await api.sql<{ id: string }>(
      `SELECT id FROM payments WHERE merchant_id = $1 AND status = 'completed' AND refund_held_amount = 0 LIMIT 1`,
      [big],
    );
    const refund = await api
      .as(merchant)
      .post(`/v1/payments/${refundable.id}/refunds`)
      .set('Idempotency-Key', `plans-${Date.now()}`)
      .send({ amount: 1, refundAccount })
      .expect(201);
    await api
      .as(merchant)
      .post(`/v1/payments/${refundable.id}/refunds`)
      .set('Idempotency-Key', `plans-whole-${Date.now()}`)
      .send({ refundAccount })
      .expect(201);
    await api.as(merchant).get(`/v1/refunds/${refund.body.data.id}`).expect(200);
    // A payment refunded in more parts than a page may waste: its pending ones are still one range.
    const [parted] = await api.sql<{ id: string }>(
      `WITH parted AS (
         UPDATE payments SET refund_held_amount = $3, refunded_amount = $3
         WHERE id = (SELECT id FROM payments WHERE merchant_id = $1 AND status = 'completed'
                       AND refund_held_amount = 0 AND amount >= $3 AND id <> $2 LIMIT 1)
         RETURNING id, merchant_id, livemode, order_id, completed_at
       ), refunded AS (
         INSERT INTO refunds (id, payment_id, merchant_id, livemode, order_id, amount, currency, status, created_at,
                              succeeded_at, vat, supplied_amount)
         SELECT 'rfd_parted' || lpad(n::text, 14, '0'), id, merchant_id, livemode, order_id, 1, 'KRW', 'succeeded',
                completed_at + n * interval '1 second', completed_at + n * interval '1 second', 0, 1
         FROM parted, generate_series(1, $3) AS n
       )
       SELECT id FROM parted`,
      [big, refundable.id, MAX_WASTED_ROWS + 500],
    );
    const refundLists = [
      `?paymentId=${parted.id}&status=pending`,
      '',
      '?limit=100',
      '?status=pending',
      '?status=failed',
      `?paymentId=${parted.id}`,
    ];
    for (const query of refundLists) await api.as(merchant).get(`/v1/refunds${query}`).expect(200);
    let refundCursor: string | null = null;
    for (let page = 0; page < 50; page++) {
      const response = await api
        .as(merchant)
        .get(`/v1/refunds?status=succeeded&limit=100${refundCursor ? `&cursor=${refundCursor}` : ''}`)
        .expect(200);
      refundCursor = response.body.nextCursor as string | null;
      if (!refundCursor) break;
    }
    const forgedRefund = Buffer.from(JSON.stringify(['2026-03-01T00:00:00.000Z', `rfd_${'A'.repeat(24)}`])).toString(
      'base64url',
    );
    await api.as(merchant).get(`/v1/refunds?cursor=${forgedRefund}`).expect(400);
    const queue = await api.admin().get('/admin/v1/refunds?limit=100').expect(200);
    await api.admin().get(`/admin/v1/refunds?limit=100&cursor=${queue.body.nextCursor}`).expect(200);
    await api.admin().get('/admin/v1/refunds?status=failed').expect(200);
    await api
      .admin()
      .post(`/admin/v1/refunds/${refund.body.data.id}/succeed`)
      .send({ bankTransactionId: 'TX-1' })
      .expect(200);
    await api.admin().post(`/admin/v1/refunds/${queue.body.data[0].id}/fail`).send({ reason: 'closed' }).expect(200);
    await api.admin().post(`/admin/v1/refunds/${refund.body.data.id}/fail`).send({ reason: 'late' }).expect(409);
    await api.as(merchant).get(`/v1/events?paymentId=${refundable.id}`).expect(200);
    // Cash receipts: one asked for on a completed payment (its lock, the open-receipt check, the
    // issue), a refund of a receipted payment (its cancel receipt), the lists with every filter, a
    // deep cursor, a forged one, the operator's queue and both of its moves.
    const [receiptless] = await api.sql<{ id: string }>(
      `SELECT id FROM payments p WHERE merchant_id = $1 AND status = 'completed' AND refund_held_amount = 0
         AND NOT EXISTS (SELECT 1 FROM cash_receipts c WHERE c.payment_id = p.id) LIMIT 1`,
      [big],
    );
    const asked = await api
      .as(merchant)
      .post(`/v1/payments/${receiptless.id}/cash-receipts`)
      .send({ type: 'income_deduction', identityNumber: '010-1234-5678' })
      .expect(201);
    await api
      .as(merchant)
      .post(`/v1/payments/${receiptless.id}/refunds`)
      .set('Idempotency-Key', `plans-receipt-${Date.now()}`)
      .send({ amount: 1, refundAccount })
      .expect(201);
    for (const query of ['', '?limit=100', '?status=pending', '?status=failed', `?paymentId=${receiptless.id}`])
      await api.as(merchant).get(`/v1/cash-receipts${query}`).expect(200);
    await api.as(merchant).get(`/v1/cash-receipts/${asked.body.data.id}`).expect(200);
    let receiptCursor: string | null = null;
    for (let page = 0; page < 50; page++) {
      const response = await api
        .as(merchant)
        .get(`/v1/cash-receipts?status=issued&limit=100${receiptCursor ? `&cursor=${receiptCursor}` : ''}`)
        .expect(200);
      receiptCursor = response.body.nextCursor as string | null;
      if (!receiptCursor) break;
    }
    const forgedReceipt = Buffer.from(JSON.stringify(['2026-03-01T00:00:00.000Z', `crc_${'A'.repeat(24)}`])).toString(
      'base64url',
    );
    await api.as(merchant).get(`/v1/cash-receipts?cursor=${forgedReceipt}`).expect(400);
    const receiptQueue = await api.admin().get('/admin/v1/cash-receipts?limit=100').expect(200);
    await api.admin().get(`/admin/v1/cash-receipts?limit=100&cursor=${receiptQueue.body.nextCursor}`).expect(200);
    await api.admin().get('/admin/v1/cash-receipts?status=failed').expect(200);
    await api
      .admin()
      .post(`/admin/v1/cash-receipts/${receiptQueue.body.data[0].id}/issue`)
      .send({ issueNumber: 'NTS-1' })
      .expect(200);
    await api
      .admin()
      .post(`/admin/v1/cash-receipts/${receiptQueue.body.data[1].id}/fail`)
      .send({ reason: 'identity_rejected' })
      .expect(200);
    // Test refunds that arrive together: the batch's lock of its payments and its one statement, among
    // the big merchant's payments (a few completed in test mode, with their settlement records).
    const testPayments = await api.sql<{ id: string }>(
      `WITH paid AS (
         INSERT INTO payments (id, merchant_id, livemode, order_id, customer_id, amount, currency, status, return_url,
                               pay_suffix, expires_at, created_at, completed_at)
         SELECT 'pay_planstestpayment' || lpad(n::text, 8, '0'), $1, false, 'plans-test-' || n, 'cust-1', 5000, 'KRW', 'completed',
                'https://shop.example/return', 'plans-test-' || n, now() + interval '1 hour', now(), now()
         FROM generate_series(1, 3) AS n
         RETURNING id, merchant_id, order_id, completed_at
       ), settled AS (
         INSERT INTO settlements (payment_id, merchant_id, livemode, order_id, gross_amount, fee_bps, fee_amount,
                                  vat_amount, net_amount, sales_date, payout_date, payout_rule, completed_at, type)
         SELECT id, merchant_id, false, order_id, 5000, 300, 150, 15, 4835, current_date, current_date + 1,
                'weekdays_only', completed_at, 'payment'
         FROM paid
       )
       SELECT id FROM paid`,
      [big],
    );
    const testMerchant = { key: (await api.issueKey(big, 'test')).key };
    const testRefunds = await Promise.all(
      testPayments.map(({ id }) =>
        api
          .as(testMerchant)
          .post(`/v1/payments/${id}/refunds`)
          .set('Idempotency-Key', `plans-${id}`)
          .send({ amount: 100 }),
      ),
    );
    expect(testRefunds.map((answer) => answer.status)).toEqual([201, 201, 201]);
    // Escrow: a test escrow payment of the big merchant shipped, corrected and confirmed, another
    // rejected, a third made due and confirmed by the task; the buyer's page's lookup and moves by link.
    const escrowIds: string[] = [];
    for (let n = 0; n < 3; n++) {
      const created = await api
        .as(testMerchant)
        .post('/v1/payments')
        .set('Idempotency-Key', `plans-escrow-${n}`)
        .send(paymentBody({ escrow: { buyerEmail: 'buyer@example.com' } }))
        .expect(201);
      escrowIds.push(created.body.data.id as string);
      await api.as(testMerchant).post(`/v1/test-helpers/payments/${escrowIds[n]}/complete`).expect(200);
      await api
        .as(testMerchant)
        .post(`/v1/payments/${escrowIds[n]}/escrow/shipment`)
        .send({ carrier: 'CJ', trackingNumber: `T-${n}` })
        .expect(200);
    }
    await api
      .as(testMerchant)
      .post(`/v1/payments/${escrowIds[0]}/escrow/shipment`)
      .send({ carrier: 'CJ', trackingNumber: 'T-0b' })
      .expect(200);
    await api.as(testMerchant).post(`/v1/test-helpers/payments/${escrowIds[0]}/escrow/confirm`).expect(200);
    await api
      .as(testMerchant)
      .post(`/v1/test-helpers/payments/${escrowIds[1]}/escrow/reject`)
      .send({ reason: 'broken' })
      .expect(200);
    await api.sql(`UPDATE payments SET escrow_auto_confirm_at = now() WHERE id = $1`, [escrowIds[2]]);
    await api.app.get(EscrowAutoConfirmTask).runOnce();
    const escrows = api.app.get(EscrowService);
    const strangerLink = 'A'.repeat(43);
    expect(await escrows.findByLink(strangerLink)).toBeNull();
    expect(await escrows.confirmByLink(strangerLink)).toBe('not_found');
    expect(await escrows.rejectByLink(strangerLink, 'no')).toBe('not_found');
    await api.as(testMerchant).get(`/v1/events?paymentId=${escrowIds[2]}`).expect(200);
    // A type's events: a range of events_type_list_idx; with a paymentId, that payment's few events.
    await api.as(merchant).get('/v1/events?type=refund.succeeded').expect(200);
    const [oldestRefunded] = await api.sql<{ payment_id: string }>(
      `SELECT payment_id FROM events WHERE id = 'evt_refund' || lpad('1', 15, '0')`,
    );
    await api.as(merchant).get(`/v1/events?type=refund.succeeded&paymentId=${oldestRefunded.payment_id}`).expect(200);

    // Deliveries: one merchant's endpoint answers, another's fails until its circuit opens and its
    // events wait in its lane (the dispatcher's reads, batched records, parks, lane lease and claim).
    const healthy = await api.merchantWithKey('test');
    const failing = await api.merchantWithKey('test');
    const plans = respondPerPayment(receiver);
    for (const shop of [healthy, failing]) {
      await api.as(shop).put('/v1/webhook-endpoint').send({ url: receiver.url }).expect(200);
    }
    const delivered = await Promise.all(Array.from({ length: 5 }, () => completedPayment(api, healthy)));
    const down = { plans, responder: () => ({ status: 500 }) };
    const owed = await Promise.all(Array.from({ length: 5 }, () => completedPayment(api, failing, down)));
    for (const { eventId } of delivered)
      await eventUntil(api, healthy, eventId, (e) => e.deliveryStatus === 'succeeded');
    for (const { eventId } of owed) await eventUntil(api, failing, eventId, (e) => e.attempts.length >= 2);

    // The background work, one run each.
    await api.app.get(PaymentExpirySweeper).runOnce();
    await api.app.get(IdempotencyKeyPurger).runOnce();
    await api.app.get(OutboxPurger).runOnce();
    await dispatcher.get(WebhookAttemptsPurger).runOnce();
    // The dispatcher's sweep, with what it makes up for: a recovery whose message was lost, and
    // deliveries parked for endpoints deleted without their message (the failing shop's, and the big
    // merchant's seeded one, which has no endpoint row).
    await api.sql(
      `INSERT INTO event_recoveries (id, merchant_id, livemode, since, queued, endpoint_id, headers, applied_at,
                                     created_at)
       VALUES ('rcv_plans', $1, true, now() - interval '30 days', 1, NULL, '{}', NULL, now() - interval '1 hour')`,
      [big],
    );
    await api.sql(
      `UPDATE webhook_deliveries SET status = 'pending', lane_due_at = now() + interval '1 hour', lane_retry_step = 1
       WHERE event_id IN (SELECT id FROM events WHERE merchant_id = $1 ORDER BY created_at DESC LIMIT 500)`,
      [big],
    );
    await api.sql(`DELETE FROM webhook_endpoints WHERE merchant_id = $1`, [failing.merchantId]);
    await dispatcher.get(DeliveryStateSweeper).runOnce();
    const [swept] = await api.sql<{ owed: number }>(
      `SELECT count(*)::int AS owed FROM webhook_deliveries
       WHERE merchant_id = ANY ($1) AND (status = 'pending' OR lane_due_at IS NOT NULL)`,
      [[big, failing.merchantId]],
    );
    expect(swept.owed).toBe(0);
    // A notice due now: the sender's own ticks may have sent the seeded ones before the capture began.
    const [due] = await api.sql<{ id: string }>(
      `INSERT INTO webhook_notices (endpoint_id, merchant_id, livemode, kind, episode, url, created_at, send_after)
       VALUES ('we_plans_due', $1, true, 'failing', now(), 'https://shop.example/hooks', now(), now()) RETURNING id`,
      [big],
    );
    await api.app.get(WebhookNoticesSender).runOnce();
    await pollUntil(
      () => api.sql<{ sent_at: Date | null }>(`SELECT sent_at FROM webhook_notices WHERE id = $1`, [due.id]),
      ([notice]) => notice.sent_at !== null,
    );

    Client.prototype.query = originalQuery;
    const explain = new Client({ connectionString: services.env.DATABASE_URL });
    await explain.connect();
    const problems: string[] = [];
    let explained = 0;
    try {
      for (const [text, values] of captured) {
        if (
          !/^\s*(WITH|SELECT|UPDATE|DELETE|INSERT)\b/i.test(text) ||
          /pg_advisory|information_schema|pg_catalog|typeorm_metadata|"migrations"/i.test(text)
        )
          continue;
        const [json] = (await analyze(explain, text, values, 'JSON')) as [{ Plan: PlanNode }[]];
        explained++;
        const parts = unboundedParts(json[0].Plan);
        if (parts.length === 0) continue;
        const plan = await analyze(explain, text, values, 'TEXT');
        problems.push(`${parts.join(', ')}:\n${text.replace(/\s+/g, ' ').trim()}\n${plan.join('\n')}`);
      }
    } finally {
      await explain.end();
    }
    expect(explained).toBeGreaterThan(20);
    // The flows above reached every kind of work, so a path that stops running shows up here.
    const texts = [...captured.keys()].join('\n');
    for (const kind of [
      /WITH RECURSIVE lanes/, // the lane workers' lease
      /WITH claimed AS/, // a lane's claim
      /INSERT INTO webhook_attempts/, // batched attempt records
      /UPDATE payments SET status = 'expired'/, // the expiry sweeper
      /FROM outbox\s+WHERE published_at IS NULL/, // the relay
      /DELETE FROM webhook_attempts/, // the attempts purger
      /FROM event_recoveries\s+WHERE applied_at IS NULL/, // the sweep's pick of recoveries not carried out
      /UPDATE event_recoveries SET applied_at/, // … carried out from the row
      /WITH RECURSIVE owed/, // the sweep's deleted endpoints still owed deliveries
      /WHERE endpoint_id = \$1 AND \(status = 'pending' OR lane_due_at IS NOT NULL\)/, // … their deliveries ended
      /UNION ALL/, // a status filter read per stored status
      /SET refund_held_amount = p\.refund_held_amount \+ i\.amount/, // refunds' guarded reserve, live and test alike
      /UPDATE refunds r SET status = 'succeeded'/, // refunds moved to succeeded
      /INSERT INTO cash_receipts[^]*'issue'/, // an issue receipt
      /cancels AS \(\s*INSERT INTO cash_receipts/, // a refund's cancel receipt, with its success
      /UPDATE cash_receipts\s+SET status/, // the operator's answer
      /SET escrow_status = 'shipped'/, // a shipment
      /escrow_auto_confirm_at <= now\(\)/, // the auto-confirm task's batch
      /WHERE escrow_token_digest = \$1 AND escrow_status/, // a buyer's move by link
      /UPDATE settlements s SET payout_status = 'scheduled'/, // held payouts released at confirmation
      /INSERT INTO settlements[^]*refund_id/, // a refund's settlement record
      /JOIN unnest\(\$1::text\[\], \$2::text\[\], \$3::boolean\[\]\) AS wanted/, // the locked read of refunds' payments
      /UPDATE vouchers v\s+SET status = CASE/, // held vouchers following their payment's move
      /INSERT INTO webhook_notices/, // the owners' notices, written with the endpoint's health
      /FROM webhook_notices WHERE sent_at IS NULL/, // the notice sender's claim
      /UPDATE webhook_notices SET sent_at/, // … and its mark
      /status = 'disabled' OR failing_since <=/, // the console's banner
    ]) {
      expect(texts).toMatch(kind);
    }
    expect(problems).toEqual([]);
  });
});
