import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { dropDatabase } from '../../../../test/support/drop-database';
import { specDatabaseUrl } from '../../../../test/support/spec-database';
import { dataSourceOptions } from '../data-source';
import { ensureDatabase } from '../ensure-database';
import { Escrow1767400000000 } from './1767400000000-escrow';
import { MIGRATIONS } from './index';

const MERCHANT = 'mch_escrowmigration0000001';
const OLD_PAYMENT = 'pay_escrowmigration0000001';
const ESCROW_PAYMENT = 'pay_escrowmigration0000002';

async function dataSource(url: string, migrations?: typeof MIGRATIONS): Promise<DataSource> {
  const options = dataSourceOptions({ url, entities: [], applicationName: 'payhook-escrow-migration-spec' });
  return new DataSource(migrations ? { ...options, migrations } : options).initialize();
}

async function migrate(url: string, migrations: typeof MIGRATIONS): Promise<void> {
  const source = await dataSource(url, migrations);
  try {
    await source.runMigrations({ transaction: 'each' });
  } finally {
    await source.destroy();
  }
}

const insertPayment = (db: Client, id: string, escrow: string) =>
  db.query(
    `INSERT INTO payments (id, merchant_id, livemode, order_id, customer_id, amount, currency, status, return_url,
       pay_suffix, expires_at, created_at, completed_at ${escrow ? ', ' + escrow.split('=')[0] : ''})
     VALUES ($1, $2, true, $1, 'customer-1', 10000, 'KRW', 'completed', 'https://shop.example/return', $1,
       now() + interval '1 hour', now(), now() ${escrow ? ', ' + escrow.split('=')[1] : ''})`,
    [id, MERCHANT],
  );

const insertSettlement = (db: Client, paymentId: string, payout: string) =>
  db.query(
    `INSERT INTO settlements (payment_id, merchant_id, livemode, order_id, gross_amount, fee_bps, fee_amount,
       vat_amount, net_amount, sales_date, completed_at, payout_date, payout_rule ${payout.includes('held') ? ', payout_status' : ''})
     VALUES ($1, $2, true, $1, 10000, 250, 250, 25, 9725, '2026-11-25', now(), ${payout})`,
    [paymentId, MERCHANT],
  );

/**
 * Escrow1767400000000 on a database that already holds a settled payment: the old record reads
 * scheduled; the escrow columns and the held records keep their rules in the database itself; and it
 * can be undone, a held record then due at once.
 */
describe('the escrow migration', () => {
  const url = specDatabaseUrl('escrow');
  let db: Client;

  beforeAll(async () => {
    await ensureDatabase(url);
    await migrate(url, MIGRATIONS.slice(0, MIGRATIONS.indexOf(Escrow1767400000000)));
    db = new Client({ connectionString: url });
    await db.connect();
    await db.query(
      `INSERT INTO merchants (id, name, status, time_zone, fee_bps, settlement_delay_days)
       VALUES ($1, 'Escrow migration', 'live', 'Asia/Seoul', 250, 2)`,
      [MERCHANT],
    );
    await insertPayment(db, OLD_PAYMENT, '');
    await insertSettlement(db, OLD_PAYMENT, `'2026-11-27', 'kr_public_holidays'`);
    await migrate(url, MIGRATIONS);
  }, 120_000);

  afterAll(async () => {
    await db?.end();
    await dropDatabase(url);
  });

  it('reads every record made before it as scheduled, with its payout date', async () => {
    const { rows } = await db.query(
      `SELECT payout_status, to_char(payout_date, 'YYYY-MM-DD') AS payout_date FROM settlements WHERE payment_id = $1`,
      [OLD_PAYMENT],
    );
    expect(rows).toEqual([{ payout_status: 'scheduled', payout_date: '2026-11-27' }]);
  });

  it('keeps an escrow whole: fields that follow the status are there exactly when it says so', async () => {
    const shipped = `escrow_status, escrow_buyer_email, escrow_carrier, escrow_tracking_number, escrow_shipped_at,
      escrow_auto_confirm_at, escrow_token_digest=
      'shipped', 'b@example.com', 'CJ', 'T-1', now(), now() + interval '7 days', sha256('t')`;
    await insertPayment(db, ESCROW_PAYMENT, shipped);
    for (const broken of [
      `escrow_status = 'confirmed'`, // no confirmedAt
      `escrow_status = 'rejected', escrow_rejected_at = now()`, // no reason
      `escrow_token_digest = NULL`, // shipped without the buyer's link
      `escrow_buyer_email = NULL`, // an escrow without its buyer
      `escrow_status = 'awaiting_shipment'`, // shipment fields without a shipment
      `escrow_status = 'lost'`,
    ]) {
      await expect(db.query(`UPDATE payments SET ${broken} WHERE id = $1`, [ESCROW_PAYMENT])).rejects.toMatchObject({
        constraint: 'payments_escrow_check',
      });
    }
    await db.query(
      `UPDATE payments SET escrow_status = 'confirmed', escrow_confirmed_at = now(), escrow_auto_confirmed = false
       WHERE id = $1`,
      [ESCROW_PAYMENT],
    );
  });

  it('holds a record with no payout date or rule, and schedules one only with both', async () => {
    await expect(
      insertSettlement(db, ESCROW_PAYMENT, `'2026-11-27', 'kr_public_holidays', 'held'`),
    ).rejects.toMatchObject({
      constraint: 'settlements_payout_status_check',
    });
    await expect(insertSettlement(db, ESCROW_PAYMENT, `NULL, NULL`)).rejects.toMatchObject({
      constraint: 'settlements_payout_status_check',
    });
    await insertSettlement(db, ESCROW_PAYMENT, `NULL, NULL, 'held'`);
  });

  it('is undone with held records due at once (dated their sales date), and done again', async () => {
    const source = await dataSource(url);
    try {
      // TypeORM's undo ignores the migration's own `transaction = false`: its CONCURRENTLY builds need none.
      await source.undoLastMigration({ transaction: 'none' });
    } finally {
      await source.destroy();
    }
    const { rows } = await db.query(
      `SELECT to_char(payout_date, 'YYYY-MM-DD') AS payout_date FROM settlements WHERE payment_id = $1`,
      [ESCROW_PAYMENT],
    );
    expect(rows).toEqual([{ payout_date: '2026-11-25' }]);
    const columns = await db.query(
      `SELECT column_name FROM information_schema.columns
       WHERE (table_name = 'payments' AND column_name LIKE 'escrow%') OR (table_name = 'settlements' AND column_name = 'payout_status')`,
    );
    expect(columns.rows).toEqual([]);
    await migrate(url, MIGRATIONS);
    const again = await db.query(`SELECT payout_status FROM settlements WHERE payment_id = $1`, [ESCROW_PAYMENT]);
    expect(again.rows).toEqual([{ payout_status: 'scheduled' }]);
  }, 60_000);
});
