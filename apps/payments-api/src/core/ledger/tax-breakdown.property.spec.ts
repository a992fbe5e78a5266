import fc from 'fast-check';
import { MAX_AMOUNT } from '@payhook/contracts';
import {
  defaultRefundTaxFree,
  paymentBreakdown,
  refundTaxFreeFits,
  refundTaxFreeProblem,
  refundVatSplit,
  vatIn,
  type NotYetRefunded,
} from './tax-breakdown';

describe('the VAT split', () => {
  it.each([
    [15_000, 0, { taxFreeAmount: 0, vat: 1_364, suppliedAmount: 13_636 }],
    [10_000, 3_000, { taxFreeAmount: 3_000, vat: 636, suppliedAmount: 6_364 }],
    [1, 0, { taxFreeAmount: 0, vat: 0, suppliedAmount: 1 }],
    [6, 0, { taxFreeAmount: 0, vat: 1, suppliedAmount: 5 }],
    [5_000, 5_000, { taxFreeAmount: 5_000, vat: 0, suppliedAmount: 0 }],
  ])('of ₩%d with ₩%d tax-free is %j', (amount, taxFree, split) => {
    expect(paymentBreakdown(amount, taxFree)).toEqual(split);
  });

  it('rounds x/11 to the nearest won', () => {
    for (let taxable = 0; taxable <= 2_000; taxable++) {
      expect(Math.abs(vatIn(taxable) - taxable / 11)).toBeLessThanOrEqual(0.5);
    }
  });
});

/** One refund as a merchant asks for it, and whether it fails before it succeeds (a live transfer refused). */
interface Asked {
  share: number;
  taxFreeShare: number | null;
  fails: boolean;
}

const history = fc.record({
  amount: fc.oneof(fc.integer({ min: 1, max: 100_000 }), fc.integer({ min: 1, max: MAX_AMOUNT })),
  taxFreeShare: fc.oneof(fc.constant(0), fc.constant(1), fc.double({ min: 0, max: 1, noNaN: true })),
  refunds: fc.array(
    fc.record({
      share: fc.oneof(fc.constant(1), fc.double({ min: 0, max: 1, noNaN: true })),
      taxFreeShare: fc.option(fc.double({ min: 0, max: 1, noNaN: true })),
      fails: fc.boolean(),
    }),
    { maxLength: 10 },
  ),
  refundsAll: fc.boolean(),
});

describe('refunds of a payment, split by running totals', () => {
  it('never go negative, stay within what is left, and add up to the payment to the won when everything is refunded', () => {
    fc.assert(
      fc.property(history, ({ amount, taxFreeShare, refunds, refundsAll }) => {
        const taxFree = Math.floor(amount * taxFreeShare);
        const payment = paymentBreakdown(amount, taxFree);
        const left: NotYetRefunded = { amount, taxFreeAmount: taxFree };
        let taxableRefunded = 0;
        const succeeded: { taxFreeAmount: number; vat: number; suppliedAmount: number; amount: number }[] = [];
        const asked: Asked[] = refundsAll ? [...refunds, { share: 1, taxFreeShare: null, fails: false }] : refunds;
        for (const refund of asked) {
          if (left.amount === 0) break;
          const refundAmount = Math.max(1, Math.min(left.amount, Math.round(left.amount * refund.share)));
          const refundTaxFree =
            refund.taxFreeShare === null
              ? defaultRefundTaxFree(refundAmount, left)
              : Math.floor(refundAmount * refund.taxFreeShare);
          if (!refundTaxFreeFits(refundAmount, refundTaxFree, left)) {
            // An explicit part that does not fit is refused; the default always fits.
            expect(refund.taxFreeShare).not.toBeNull();
            continue;
          }
          if (refund.fails) continue; // held while pending, given back when it fails: nothing changes
          const taxable = refundAmount - refundTaxFree;
          const split = refundVatSplit(amount - taxFree, taxableRefunded, taxable);
          expect(split.vat).toBeGreaterThanOrEqual(0);
          expect(split.suppliedAmount).toBeGreaterThanOrEqual(0);
          taxableRefunded += taxable;
          left.amount -= refundAmount;
          left.taxFreeAmount -= refundTaxFree;
          expect(left.taxFreeAmount).toBeGreaterThanOrEqual(0);
          expect(left.taxFreeAmount).toBeLessThanOrEqual(left.amount);
          succeeded.push({ amount: refundAmount, taxFreeAmount: refundTaxFree, ...split });
        }
        if (left.amount === 0) {
          const sum = (key: 'amount' | 'taxFreeAmount' | 'vat' | 'suppliedAmount') =>
            succeeded.reduce((total, refund) => total + refund[key], 0);
          expect({
            amount: sum('amount'),
            taxFreeAmount: sum('taxFreeAmount'),
            vat: sum('vat'),
            suppliedAmount: sum('suppliedAmount'),
          }).toEqual({ amount, ...payment });
        }
      }),
      { numRuns: 2_000 },
    );
  });

  it('takes the whole remaining tax-free part with a refund of the whole remainder', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: MAX_AMOUNT }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (amount, share) => {
          const left = { amount, taxFreeAmount: Math.floor(amount * share) };
          expect(defaultRefundTaxFree(amount, left)).toBe(left.taxFreeAmount);
        },
      ),
    );
  });

  it('refuses a tax-free part larger than the refund, than what is left tax-free, or leaving too much taxable', () => {
    const left = { amount: 10_000, taxFreeAmount: 3_000 };
    expect(refundTaxFreeFits(5_000, 3_000, left)).toBe(true);
    expect(refundTaxFreeFits(5_000, 5_001, left)).toBe(false);
    expect(refundTaxFreeFits(5_000, 3_001, left)).toBe(false);
    expect(refundTaxFreeFits(8_000, 0, left)).toBe(false); // 8,000 taxable of 7,000 left
    expect(refundTaxFreeFits(8_000, 1_000, left)).toBe(true);
    expect(refundTaxFreeFits(5_000, -1, left)).toBe(false);
    expect(refundTaxFreeFits(5_000, 0.5, left)).toBe(false);
  });

  it('names the rule a tax-free part breaks, the first in the order the rules are told', () => {
    const left = { amount: 10_000, taxFreeAmount: 3_000 };
    expect(refundTaxFreeProblem(5_000, 3_000, left)).toBeNull();
    expect(refundTaxFreeProblem(5_000, -1, left)).toBe('not_whole_won');
    expect(refundTaxFreeProblem(5_000, 0.5, left)).toBe('not_whole_won');
    expect(refundTaxFreeProblem(2_000, 2_500, left)).toBe('over_amount');
    expect(refundTaxFreeProblem(5_000, 3_001, left)).toBe('over_tax_free_left');
    expect(refundTaxFreeProblem(8_000, 999, left)).toBe('over_taxable_left');
  });
});
