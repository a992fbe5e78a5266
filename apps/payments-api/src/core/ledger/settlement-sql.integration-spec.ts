import fc from 'fast-check';
import { Client } from 'pg';
import { testDatabaseUrl } from '../../../../../test/support/test-env';
import { MAX_FEE_BPS, refundSettlementAmounts } from './settlement-calculation';
import { refundSettlementSql } from './settlement-writer';

/**
 * The refund record's amounts as a test refund's statement computes them in Postgres
 * (refundSettlementSql) against the TypeScript reference, on the edges of the rounding steps and on
 * random cases: both must give the same record.
 */
describe('refundSettlementSql', () => {
  const db = new Client({ connectionString: testDatabaseUrl() });
  beforeAll(() => db.connect());
  afterAll(() => db.end());

  const inSql = async (before: number, amount: number, bps: number) => {
    const { feeAmount, vatAmount, netAmount } = refundSettlementSql('$1::bigint', '$2::bigint', '$3::int');
    const { rows } = await db.query<{ fee: string; vat: string; net: string }>(
      `SELECT ${feeAmount} AS fee, ${vatAmount} AS vat, ${netAmount} AS net`,
      [before, amount, bps],
    );
    const [row] = rows;
    return { grossAmount: -amount, feeAmount: Number(row.fee), vatAmount: Number(row.vat), netAmount: Number(row.net) };
  };

  it.each([
    [0, 1, 0],
    [0, 15_000, 250],
    [399, 1, 250],
    [14_000, 1_000, 250],
    [0, 10_000_000_000, MAX_FEE_BPS],
    [9_999_999_999, 1, MAX_FEE_BPS],
  ])('R₀ %i, amount %i, %i bps', async (before, amount, bps) => {
    expect(await inSql(before, amount, bps)).toEqual(refundSettlementAmounts(before, amount, bps));
  });

  it('agrees with refundSettlementAmounts on random refunds', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 10_000_000_000 }),
        fc.integer({ min: 1, max: 10_000_000_000 }),
        fc.integer({ min: 0, max: MAX_FEE_BPS }),
        async (before, amount, bps) => {
          // 0 and −0 are the same won: compare as numbers, not by Object.is.
          const [sql, reference] = [await inSql(before, amount, bps), refundSettlementAmounts(before, amount, bps)];
          for (const key of ['grossAmount', 'feeAmount', 'vatAmount', 'netAmount'] as const)
            expect(sql[key] === reference[key]).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });
});
