import fc from 'fast-check';
import { MAX_AMOUNT } from '@payhook/contracts';
import {
  MAX_FEE_BPS,
  refundSettlementAmounts,
  settlementAmounts,
  type SettlementAmounts,
} from './settlement-calculation';

/**
 * A payment and a random history of partial refunds: cut points in 1..amount, sorted, give
 * the refunded running totals; the last part is the remainder when the history refunds everything.
 */
const refundHistory = fc
  .record({
    amount: fc.oneof(fc.integer({ min: 1, max: 1_000 }), fc.integer({ min: 1, max: MAX_AMOUNT })),
    feeBps: fc.oneof(fc.constantFrom(0, 250, 330, MAX_FEE_BPS), fc.integer({ min: 0, max: MAX_FEE_BPS })),
    cuts: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 12 }),
    refundsAll: fc.boolean(),
  })
  .map(({ amount, feeBps, cuts, refundsAll }) => {
    const totals = [...new Set(cuts.map((cut) => Math.max(1, Math.round(cut * amount))))].sort((a, b) => a - b);
    if (refundsAll && totals.at(-1) !== amount) totals.push(amount);
    const parts = totals.map((total, index) => total - (index === 0 ? 0 : totals[index - 1]));
    return { amount, feeBps, parts };
  });

function refundRecords(parts: number[], feeBps: number): SettlementAmounts[] {
  let refunded = 0;
  return parts.map((part) => {
    const record = refundSettlementAmounts(refunded, part, feeBps);
    refunded += part;
    return record;
  });
}

const COLUMNS = ['grossAmount', 'feeAmount', 'vatAmount', 'netAmount'] as const;

describe('settlement records of a payment and its refunds', () => {
  it('keep gross = fee + VAT + net on every record, with the signs of a refund', () => {
    fc.assert(
      fc.property(refundHistory, ({ feeBps, parts }) => {
        for (const [index, record] of refundRecords(parts, feeBps).entries()) {
          expect(record.feeAmount + record.vatAmount + record.netAmount).toBe(record.grossAmount);
          expect(record.grossAmount).toBe(-parts[index]);
          expect(record.grossAmount).toBeLessThan(0);
          expect(record.feeAmount).toBeLessThanOrEqual(0);
          expect(record.vatAmount).toBeLessThanOrEqual(0);
          // A 1-won part can cross a fee and a VAT step together and pay the merchant 1 won back.
          expect(record.netAmount).toBeLessThanOrEqual(parts[index] === 1 ? 1 : 0);
          for (const column of COLUMNS) expect(Number.isSafeInteger(record[column])).toBe(true);
        }
      }),
      { numRuns: 5_000 },
    );
  });

  it('sum to exactly zero in every column once the whole amount is refunded', () => {
    fc.assert(
      fc.property(refundHistory, ({ amount, feeBps, parts }) => {
        fc.pre(parts.reduce((sum, part) => sum + part, 0) === amount);
        const records = [settlementAmounts(amount, feeBps), ...refundRecords(parts, feeBps)];
        for (const column of COLUMNS) {
          expect(records.reduce((sum, record) => sum + record[column], 0)).toBe(0);
        }
      }),
      { numRuns: 5_000 },
    );
  });

  it('keep charged, after any partial refunds, fee(amount) − fee(refunded), whatever the parts were', () => {
    fc.assert(
      fc.property(refundHistory, ({ amount, feeBps, parts }) => {
        const refunded = parts.reduce((sum, part) => sum + part, 0);
        const records = [settlementAmounts(amount, feeBps), ...refundRecords(parts, feeBps)];
        const fee = records.reduce((sum, record) => sum + record.feeAmount, 0);
        // Running totals: what stays charged is fee(amount) − fee(refunded), whatever the parts were.
        expect(fee).toBe(settlementAmounts(amount, feeBps).feeAmount - settlementAmounts(refunded, feeBps).feeAmount);
      }),
      { numRuns: 2_000 },
    );
  });
});
