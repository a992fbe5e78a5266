import fc from 'fast-check';
import { Client } from 'pg';
import { MAX_AMOUNT } from '@payhook/contracts';
import { testDatabaseUrl } from '../../../../../test/support/test-env';
import { refundVatSplit, refundVatSql } from './tax-breakdown';

/**
 * A refund's VAT as Postgres computes it when the refund succeeds (refundVatSql, bigint columns)
 * against its TypeScript twin, over random payments and refund histories. Temporary tables of the
 * same names shadow the real ones for this session: only the columns the SQL reads.
 */
describe('refundVatSql', () => {
  const db = new Client({ connectionString: testDatabaseUrl() });
  beforeAll(async () => {
    await db.connect();
    const scope = `merchant_id text DEFAULT 'mch_refundvat', livemode boolean DEFAULT false`;
    await db.query(`CREATE TEMP TABLE payments (id text PRIMARY KEY, amount bigint, tax_free_amount bigint, ${scope})`);
    await db.query(
      `CREATE TEMP TABLE refunds (id text PRIMARY KEY, payment_id text, amount bigint, tax_free_amount bigint, status text, ${scope})`,
    );
  });
  afterAll(() => db.end());

  /** The VAT of each refund in turn, each computed by SQL with the ones before it succeeded. */
  async function vatsInSql(amount: number, taxFree: number, refunds: { amount: number; taxFree: number }[]) {
    await db.query(`TRUNCATE payments, refunds`);
    await db.query(`INSERT INTO payments VALUES ('pay', $1, $2)`, [amount, taxFree]);
    const vats: number[] = [];
    for (const [index, refund] of refunds.entries()) {
      const id = `rfd${index}`;
      await db.query(`INSERT INTO refunds VALUES ($1, 'pay', $2, $3, 'pending')`, [id, refund.amount, refund.taxFree]);
      const { rows } = await db.query<{ vat: string }>(refundVatSql('$1::text[]'), [[id]]);
      vats.push(Number(rows[0].vat));
      await db.query(`UPDATE refunds SET status = 'succeeded' WHERE id = $1`, [id]);
    }
    return vats;
  }

  it('agrees with refundVatSplit on random payments and refunds', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: MAX_AMOUNT }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true })), {
          minLength: 1,
          maxLength: 5,
        }),
        async (amount, taxFreeShare, shares) => {
          const taxFree = Math.floor(amount * taxFreeShare);
          let taxableLeft = amount - taxFree;
          let taxFreeLeft = taxFree;
          const refunds: { amount: number; taxFree: number }[] = [];
          for (const [share, freeShare] of shares) {
            const taxable = Math.floor(taxableLeft * share);
            const free = Math.floor(taxFreeLeft * freeShare);
            if (taxable + free === 0) continue;
            refunds.push({ amount: taxable + free, taxFree: free });
            taxableLeft -= taxable;
            taxFreeLeft -= free;
          }
          let before = 0;
          const expected = refunds.map((refund) => {
            const { vat } = refundVatSplit(amount - taxFree, before, refund.amount - refund.taxFree);
            before += refund.amount - refund.taxFree;
            return vat;
          });
          expect(await vatsInSql(amount, taxFree, refunds)).toEqual(expected);
        },
      ),
      { numRuns: 100 },
    );
  });
});
