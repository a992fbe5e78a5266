import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { dropDatabase } from '../../../../test/support/drop-database';
import { specDatabaseUrl } from '../../../../test/support/spec-database';
import { dataSourceOptions } from '../data-source';
import { ensureDatabase } from '../ensure-database';
import { Refunds1765300000000 } from './1765300000000-refunds';
import { MIGRATIONS } from './index';

const MERCHANT = 'mch_refundsmigration000001';
const PAYMENT = 'pay_refundsmigration000001';

/** Runs `migrations` (each in its own transaction unless it says otherwise) on the database at `url`. */
async function migrate(url: string, migrations: typeof MIGRATIONS): Promise<void> {
  const options = dataSourceOptions({ url, entities: [], applicationName: 'payhook-refunds-migration-spec' });
  const dataSource = await new DataSource({ ...options, migrations }).initialize();
  try {
    await dataSource.runMigrations({ transaction: 'each' });
  } finally {
    await dataSource.destroy();
  }
}

/** Undoes the migrations from the last one back to the refunds migration, that one included. */
async function undoThroughRefunds(url: string): Promise<void> {
  const options = dataSourceOptions({ url, entities: [], applicationName: 'payhook-refunds-migration-spec' });
  const dataSource = await new DataSource(options).initialize();
  try {
    for (let left = MIGRATIONS.length - MIGRATIONS.indexOf(Refunds1765300000000); left > 0; left--) {
      // TypeORM's undo ignores the migration's own `transaction = false`: its CONCURRENTLY builds need none.
      await dataSource.undoLastMigration({ transaction: 'none' });
    }
  } finally {
    await dataSource.destroy();
  }
}

/**
 * Refunds1765300000000 on a database that already holds a completed payment, its settlement record
 * and its event, written with the schema before it: the refund guards hold on old rows.
 */
describe('the refunds migration', () => {
  const url = specDatabaseUrl('refunds');
  let db: Client;

  beforeAll(async () => {
    await ensureDatabase(url);
    await migrate(url, MIGRATIONS.slice(0, MIGRATIONS.indexOf(Refunds1765300000000)));
    db = new Client({ connectionString: url });
    await db.connect();
    await db.query(
      `INSERT INTO merchants (id, name, status, time_zone, fee_bps, settlement_delay_days)
       VALUES ($1, 'Refunds migration', 'live', 'Asia/Seoul', 250, 2)`,
      [MERCHANT],
    );
    await db.query(
      `INSERT INTO payments (id, merchant_id, livemode, order_id, customer_id, amount, currency, status, return_url,
         pay_suffix, expires_at, created_at, completed_at)
       VALUES ($1, $2, true, 'order-1', 'customer-1', 10000, 'KRW', 'completed', 'https://shop.example/return',
         'suffix-refunds-migration', now() + interval '1 hour', now(), now())`,
      [PAYMENT, MERCHANT],
    );
    await db.query(
      `INSERT INTO settlements (payment_id, merchant_id, livemode, order_id, gross_amount, fee_bps, fee_amount,
         vat_amount, net_amount, sales_date, payout_date, completed_at)
       VALUES ($1, $2, true, 'order-1', 10000, 250, 250, 25, 9725, '2026-11-25', '2026-11-27', now())`,
      [PAYMENT, MERCHANT],
    );
    await db.query(
      `INSERT INTO events (id, merchant_id, livemode, type, payment_id, body, created_at)
       VALUES ('evt_refundsmigration000001', $2, true, 'payment.completed', $1, '{}', now())`,
      [PAYMENT, MERCHANT],
    );
    await migrate(url, MIGRATIONS);
  }, 120_000);

  afterAll(async () => {
    await db?.end();
    await dropDatabase(url);
  });

  /** What a refund does to reserve its amount (see the migration's comment). */
  const hold = async (amount: number) =>
    (
      await db.query<{ refund_held_amount: string }>(
        `UPDATE payments SET refund_held_amount = refund_held_amount + $2
         WHERE id = $1 AND status = 'completed' AND refund_held_amount + $2 <= amount
         RETURNING refund_held_amount`,
        [PAYMENT, amount],
      )
    ).rows;

  // A succeeded refund carries its VAT split since the tax breakdown's migration (refunds_vat_check).
  const insertRefund = async (id: string, amount: number) =>
    db.query(
      `INSERT INTO refunds (id, payment_id, merchant_id, livemode, order_id, amount, currency, status, created_at,
         succeeded_at, vat, supplied_amount)
       VALUES ($1, $2, $3, true, 'order-1', $4::bigint, 'KRW', 'succeeded', now(), now(), ($4::bigint + 5) / 11,
         $4::bigint - ($4::bigint + 5) / 11)`,
      [id, PAYMENT, MERCHANT, amount],
    );

  it('keeps the existing payment, with nothing refunded', async () => {
    const { rows } = await db.query(`SELECT refund_held_amount, refunded_amount FROM payments WHERE id = $1`, [
      PAYMENT,
    ]);
    expect(rows).toEqual([{ refund_held_amount: '0', refunded_amount: '0' }]);
    const settlement = await db.query(`SELECT type, refund_id FROM settlements WHERE payment_id = $1`, [PAYMENT]);
    expect(settlement.rows).toEqual([{ type: 'payment', refund_id: null }]);
  });

  it('lets the guarded UPDATE hold up to the amount and no further', async () => {
    await expect(hold(6000)).resolves.toEqual([{ refund_held_amount: '6000' }]);
    await expect(hold(4001)).resolves.toEqual([]);
    await expect(hold(4000)).resolves.toEqual([{ refund_held_amount: '10000' }]);
    await expect(hold(1)).resolves.toEqual([]);
  });

  it('rejects a direct hold over the amount, and refunded above held', async () => {
    await expect(db.query(`UPDATE payments SET refund_held_amount = 10001 WHERE id = $1`, [PAYMENT])).rejects.toThrow(
      /payments_refund_amounts_check/,
    );
    await expect(
      db.query(`UPDATE payments SET refund_held_amount = 100, refunded_amount = 101 WHERE id = $1`, [PAYMENT]),
    ).rejects.toThrow(/payments_refund_amounts_check/);
  });

  it('keeps a refund consistent with its status', async () => {
    await expect(
      db.query(
        `INSERT INTO refunds (id, payment_id, merchant_id, livemode, order_id, amount, currency, status, created_at)
         VALUES ('rfd_refundsmigrationbad01', $1, $2, true, 'order-1', 100, 'KRW', 'succeeded', now())`,
        [PAYMENT, MERCHANT],
      ),
    ).rejects.toThrow(/refunds_succeeded_check/);
    await expect(
      db.query(
        `INSERT INTO refunds (id, payment_id, merchant_id, livemode, order_id, amount, currency, status, created_at)
         VALUES ('rfd_refundsmigrationbad02', $1, $2, true, 'order-1', 0, 'KRW', 'pending', now())`,
        [PAYMENT, MERCHANT],
      ),
    ).rejects.toThrow(/refunds_amount_check/);
  });

  it("ties a refund to its payment's merchant and mode", async () => {
    const other = 'mch_refundsmigration000002';
    await db.query(
      `INSERT INTO merchants (id, name, status, time_zone, fee_bps, settlement_delay_days)
       VALUES ($1, 'Another shop', 'live', 'Asia/Seoul', 250, 2)`,
      [other],
    );
    const refundAs = (id: string, merchantId: string, livemode: boolean) =>
      db.query(
        `INSERT INTO refunds (id, payment_id, merchant_id, livemode, order_id, amount, currency, status, created_at)
         VALUES ($1, $2, $3, $4, 'order-1', 100, 'KRW', 'pending', now())`,
        [id, PAYMENT, merchantId, livemode],
      );
    await expect(refundAs('rfd_refundsmigrationbad03', other, true)).rejects.toThrow(/refunds_payment_fkey/);
    await expect(refundAs('rfd_refundsmigrationbad04', MERCHANT, false)).rejects.toThrow(/refunds_payment_fkey/);
    const key = await db.query(`SELECT contype FROM pg_constraint WHERE conname = 'payments_id_merchant_livemode_key'`);
    expect(key.rows).toEqual([{ contype: 'u' }]);
  });

  it('takes one event per refund and type beside the payment event of that type', async () => {
    await insertRefund('rfd_refundsmigration00001', 3000);
    await insertRefund('rfd_refundsmigration00002', 2000);
    const event = (id: string, refundId: string | null) =>
      db.query(
        `INSERT INTO events (id, merchant_id, livemode, type, payment_id, refund_id, body, created_at)
         VALUES ($1, $2, true, 'refund.succeeded', $3, $4, '{}', now())`,
        [id, MERCHANT, PAYMENT, refundId],
      );
    await event('evt_refundsmigration000002', 'rfd_refundsmigration00001');
    await event('evt_refundsmigration000003', 'rfd_refundsmigration00002');
    await expect(event('evt_refundsmigration000004', 'rfd_refundsmigration00002')).rejects.toThrow(
      /events_one_per_(payment_and_type_v[23]|refund_and_type)/,
    );
    await expect(
      db.query(
        `INSERT INTO events (id, merchant_id, livemode, type, payment_id, body, created_at)
         VALUES ('evt_refundsmigration000005', $1, true, 'payment.completed', $2, '{}', now())`,
        [MERCHANT, PAYMENT],
      ),
    ).rejects.toThrow(/events_one_per_payment_and_type_v[23]/);
  });

  it('takes one payment record and one record per refund in settlements', async () => {
    const record = (type: string, refundId: string | null) =>
      db.query(
        `INSERT INTO settlements (payment_id, merchant_id, livemode, order_id, gross_amount, fee_bps, fee_amount,
           vat_amount, net_amount, sales_date, payout_date, completed_at, type, refund_id)
         VALUES ($1, $2, true, 'order-1', -3000, 250, -75, -7, -2918, '2026-11-26', '2026-11-30', now(), $3, $4)`,
        [PAYMENT, MERCHANT, type, refundId],
      );
    await expect(record('payment', null)).rejects.toThrow(/settlements_one_per_payment_and_refund/);
    await expect(record('refund', null)).rejects.toThrow(/settlements_refund_record_check/);
    await expect(record('payment', 'rfd_refundsmigration00001')).rejects.toThrow(/settlements_refund_record_check/);
    await record('refund', 'rfd_refundsmigration00001');
    await record('refund', 'rfd_refundsmigration00002');
    await expect(record('refund', 'rfd_refundsmigration00002')).rejects.toThrow(
      /settlements_one_per_(payment_and_refund|refund)/,
    );
  });

  it('serves the keyset list of a day from settlements_day_record_order_idx, without a sort', async () => {
    await db.query('BEGIN');
    try {
      // A tiny table: make the planner show whether the index can serve the order at all.
      await db.query('SET LOCAL enable_seqscan = off');
      await db.query('SET LOCAL enable_sort = off');
      const { rows } = await db.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN SELECT payment_id, refund_id FROM settlements
         WHERE merchant_id = $1 AND livemode = true
           AND (sales_date, completed_at, payment_id, COALESCE(refund_id, '')) > ('2026-11-25', now(), '', '')
         ORDER BY settlements.sales_date, settlements.completed_at, settlements.payment_id,
           COALESCE(settlements.refund_id, '')
         LIMIT 20`,
        [MERCHANT],
      );
      const plan = rows.map((row) => row['QUERY PLAN']).join('\n');
      expect(plan).toContain('settlements_day_record_order_idx');
      expect(plan).not.toMatch(/\bSort\b/);
    } finally {
      await db.query('ROLLBACK');
    }
  });

  it('runs again over itself, as after a run that stopped half-way', async () => {
    const options = dataSourceOptions({ url, entities: [], applicationName: 'payhook-refunds-migration-spec' });
    const dataSource = await new DataSource(options).initialize();
    const runner = dataSource.createQueryRunner();
    try {
      await new Refunds1765300000000().up(runner);
    } finally {
      await runner.release();
      await dataSource.destroy();
    }
    const { rows } = await db.query(`SELECT count(*)::int AS count FROM refunds`);
    expect(rows).toEqual([{ count: 2 }]);
  }, 120_000);

  it('goes down, forgetting the refunds, and up again', async () => {
    await undoThroughRefunds(url);
    const { rows } = await db.query(
      `SELECT count(*)::int AS settlements, (SELECT count(*)::int FROM events) AS events FROM settlements`,
    );
    expect(rows).toEqual([{ settlements: 1, events: 1 }]);
    const key = await db.query(`SELECT 1 FROM pg_constraint WHERE conname = 'settlements_pkey'`);
    expect(key.rowCount).toBe(1);
    const paymentsKey = await db.query(`SELECT 1 FROM pg_class WHERE relname = 'payments_id_merchant_livemode_key'`);
    expect(paymentsKey.rowCount).toBe(0);
    await migrate(url, MIGRATIONS);
    const refunds = await db.query(`SELECT count(*)::int AS count FROM refunds`);
    expect(refunds.rows).toEqual([{ count: 0 }]);
  }, 120_000);
});
