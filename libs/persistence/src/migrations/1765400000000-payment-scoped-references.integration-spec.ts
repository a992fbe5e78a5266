import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { dropDatabase } from '../../../../test/support/drop-database';
import { specDatabaseUrl } from '../../../../test/support/spec-database';
import { dataSourceOptions } from '../data-source';
import { ensureDatabase } from '../ensure-database';
import { PaymentScopedReferences1765400000000 } from './1765400000000-payment-scoped-references';
import { MIGRATIONS } from './index';

const [SHOP, OTHER] = ['mch_scopedrefsmigration0001', 'mch_scopedrefsmigration0002'];
const PAYMENT = 'pay_scopedrefsmigration0001';
/** Written after the migration, without a settlement record yet. */
const UNSETTLED = 'pay_scopedrefsmigration0002';
const FOREIGN_KEY_VIOLATION = '23503';

async function migrate(url: string, migrations: typeof MIGRATIONS): Promise<void> {
  const options = dataSourceOptions({ url, entities: [], applicationName: 'payhook-scoped-refs-migration-spec' });
  const dataSource = await new DataSource({ ...options, migrations }).initialize();
  try {
    await dataSource.runMigrations({ transaction: 'each' });
  } finally {
    await dataSource.destroy();
  }
}

/** The SQLSTATE a statement fails with, or 'ok'. */
async function outcome(db: Client, text: string, params: unknown[]): Promise<string> {
  await db.query('SAVEPOINT attempt');
  try {
    await db.query(text, params);
    return 'ok';
  } catch (error) {
    return (error as { code: string }).code;
  } finally {
    await db.query('ROLLBACK TO SAVEPOINT attempt');
  }
}

/**
 * PaymentScopedReferences1765400000000 on a database holding a payment with its event and settlement
 * record: they stay, and from then on a row's merchant and mode must be its payment's.
 */
describe('the payment-scoped references migration', () => {
  const url = specDatabaseUrl('scopedrefs');
  let db: Client;

  beforeAll(async () => {
    await ensureDatabase(url);
    await migrate(url, MIGRATIONS.slice(0, MIGRATIONS.indexOf(PaymentScopedReferences1765400000000)));
    db = new Client({ connectionString: url });
    await db.connect();
    for (const merchant of [SHOP, OTHER]) {
      await db.query(
        `INSERT INTO merchants (id, name, status, time_zone, fee_bps, settlement_delay_days)
         VALUES ($1, 'Scoped references', 'live', 'Asia/Seoul', 250, 2)`,
        [merchant],
      );
    }
    await db.query(
      `INSERT INTO payments (id, merchant_id, livemode, order_id, customer_id, amount, currency, status, return_url,
         pay_suffix, expires_at, created_at, completed_at)
       VALUES ($1, $2, true, 'order-1', 'customer-1', 10000, 'KRW', 'completed', 'https://shop.example/return',
         'suffix-scoped-refs', now() + interval '1 hour', now(), now())`,
      [PAYMENT, SHOP],
    );
    await db.query(
      `INSERT INTO settlements (payment_id, merchant_id, livemode, order_id, gross_amount, fee_bps, fee_amount,
         vat_amount, net_amount, sales_date, payout_date, completed_at)
       VALUES ($1, $2, true, 'order-1', 10000, 250, 250, 25, 9725, '2026-11-25', '2026-11-27', now())`,
      [PAYMENT, SHOP],
    );
    await db.query(
      `INSERT INTO events (id, merchant_id, livemode, type, payment_id, body, created_at)
       VALUES ('evt_scopedrefsmigration0001', $2, true, 'payment.completed', $1, '{}', now())`,
      [PAYMENT, SHOP],
    );
    await migrate(url, MIGRATIONS);
    await db.query(
      `INSERT INTO payments (id, merchant_id, livemode, order_id, customer_id, amount, currency, status, return_url,
         pay_suffix, expires_at, created_at, completed_at)
       VALUES ($1, $2, true, 'order-2', 'customer-1', 10000, 'KRW', 'completed', 'https://shop.example/return',
         'suffix-scoped-refs-2', now() + interval '1 hour', now(), now())`,
      [UNSETTLED, SHOP],
    );
    await db.query('BEGIN');
  }, 120_000);

  afterAll(async () => {
    await db?.query('ROLLBACK');
    await db?.end();
    await dropDatabase(url);
  });

  it('keeps the rows written before', async () => {
    const { rows } = await db.query(
      `SELECT (SELECT count(*)::int FROM events) AS events, (SELECT count(*)::int FROM settlements) AS settlements`,
    );
    expect(rows).toEqual([{ events: 1, settlements: 1 }]);
  });

  it.each([
    ['its own merchant and mode', SHOP, true, 'ok'],
    ["another merchant's", OTHER, true, FOREIGN_KEY_VIOLATION],
    ['the other mode', SHOP, false, FOREIGN_KEY_VIOLATION],
  ])(
    "takes an event and a record with %s only if they are its payment's",
    async (_case, merchant, livemode, expected) => {
      await expect(
        outcome(
          db,
          `INSERT INTO events (id, merchant_id, livemode, type, payment_id, body, created_at)
         VALUES ('evt_scopedrefsmigration0002', $2, $3, 'payment.failed', $1, '{}', now())`,
          [PAYMENT, merchant, livemode],
        ),
      ).resolves.toBe(expected);
      await expect(
        outcome(
          db,
          `INSERT INTO settlements (payment_id, merchant_id, livemode, order_id, gross_amount, fee_bps, fee_amount,
           vat_amount, net_amount, sales_date, payout_date, completed_at, type, refund_id)
         VALUES ($1, $2, $3, 'order-2', 10000, 250, 250, 25, 9725, '2026-11-26', '2026-11-28', now(), 'payment', NULL)`,
          [UNSETTLED, merchant, livemode],
        ),
      ).resolves.toBe(expected);
    },
  );

  it('refuses rows of a payment that does not exist', async () => {
    await expect(
      outcome(
        db,
        `INSERT INTO events (id, merchant_id, livemode, type, payment_id, body, created_at)
         VALUES ('evt_scopedrefsmigration0003', $1, true, 'payment.completed', 'pay_scopedrefsmissing00001', '{}', now())`,
        [SHOP],
      ),
    ).resolves.toBe(FOREIGN_KEY_VIOLATION);
  });

  it('still ties a refund to its payment and merchant', async () => {
    await expect(
      outcome(
        db,
        `INSERT INTO refunds (id, payment_id, merchant_id, livemode, order_id, amount, currency, status, created_at)
         VALUES ('rfd_scopedrefsmigration0001', $1, $2, true, 'order-1', 100, 'KRW', 'pending', now())`,
        [PAYMENT, OTHER],
      ),
    ).resolves.toBe(FOREIGN_KEY_VIOLATION);
  });
});
