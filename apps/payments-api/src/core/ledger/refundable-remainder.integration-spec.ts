import fc from 'fast-check';
import { Client } from 'pg';
import { testDatabaseUrl } from '../../../../../test/support/test-env';
import { refundableRemainder, refundableRemainderSql, type RemainderTerms } from './refundable-remainder';

/** The refundable remainder as Postgres computes it (bigint columns) against its TypeScript twin. */
describe('refundableRemainderSql', () => {
  const db = new Client({ connectionString: testDatabaseUrl() });
  beforeAll(() => db.connect());
  afterAll(() => db.end());

  const inSql = async (terms: RemainderTerms<number>) => {
    const sql = refundableRemainderSql({ amount: '$1::bigint', refundHeld: '$2::bigint', voucherValue: '$3::bigint' });
    const { rows } = await db.query<{ remainder: string }>(`SELECT ${sql} AS remainder`, [
      terms.amount,
      terms.refundHeld,
      terms.voucherValue,
    ]);
    return Number(rows[0].remainder);
  };

  it.each([
    { amount: 15_000, refundHeld: 0, voucherValue: 0, remainder: 15_000 },
    { amount: 15_000, refundHeld: 5_000, voucherValue: 5_000, remainder: 5_000 },
    { amount: 15_000, refundHeld: 10_000, voucherValue: 5_000, remainder: 0 },
  ])('amount $amount, refunds $refundHeld, vouchers $voucherValue → $remainder', async (terms) => {
    expect(await inSql(terms)).toBe(terms.remainder);
    expect(refundableRemainder(terms)).toBe(terms.remainder);
  });

  it('agrees with refundableRemainder on random payments', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 10_000_000_000 }).chain((amount) =>
          fc.record({
            amount: fc.constant(amount),
            voucherValue: fc.integer({ min: 0, max: amount }),
            refundHeld: fc.integer({ min: 0, max: amount }),
          }),
        ),
        async (terms) => {
          expect(await inSql(terms)).toBe(refundableRemainder(terms));
        },
      ),
      { numRuns: 200 },
    );
  });
});
