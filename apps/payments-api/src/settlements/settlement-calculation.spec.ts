import fc from 'fast-check';
import { MAX_AMOUNT } from '@payhook/contracts';
import { MAX_FEE_BPS, salesDate, settlementAmounts } from './settlement-calculation';

describe('settlementAmounts', () => {
  it('keeps gross = fee + VAT + net exactly, in whole won, for any amount and rate', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: MAX_AMOUNT }), fc.integer({ min: 0, max: MAX_FEE_BPS }), (gross, bps) => {
        const { grossAmount, feeAmount, vatAmount, netAmount } = settlementAmounts(gross, bps);
        expect(grossAmount).toBe(gross);
        expect(feeAmount + vatAmount + netAmount).toBe(gross);
        for (const part of [feeAmount, vatAmount, netAmount]) {
          expect(Number.isSafeInteger(part)).toBe(true);
          expect(part).toBeGreaterThanOrEqual(0);
        }
        // Rounded down: never more than the exact rate, and less by under one won.
        const exactFee = (gross * bps) / 10_000;
        expect(feeAmount).toBeLessThanOrEqual(exactFee);
        expect(exactFee - feeAmount).toBeLessThan(1);
        expect(vatAmount).toBe(Math.floor(feeAmount / 10));
      }),
      { numRuns: 5_000 },
    );
  });

  it.each([
    // gross, bps → fee, VAT, net
    [15_000, 250, 375, 37, 14_588],
    [10_000, 330, 330, 33, 9_637],
    [1, 250, 0, 0, 1],
    [999, 350, 34, 3, 962],
    [10_000_000_000, 5_000, 5_000_000_000, 500_000_000, 4_500_000_000],
  ])('%i won at %i bps: fee %i, VAT %i, net %i', (gross, bps, fee, vat, net) => {
    expect(settlementAmounts(gross, bps)).toEqual({
      grossAmount: gross,
      feeAmount: fee,
      vatAmount: vat,
      netAmount: net,
    });
  });

  it('refuses amounts and rates that are not whole numbers in range', () => {
    expect(() => settlementAmounts(1.5, 250)).toThrow(RangeError);
    expect(() => settlementAmounts(100, MAX_FEE_BPS + 1)).toThrow(RangeError);
    expect(() => settlementAmounts(100, 2.5)).toThrow(RangeError);
  });
});

describe('salesDate', () => {
  it('is the calendar date in Asia/Seoul (UTC+9), not in UTC', () => {
    expect(salesDate(new Date('2026-11-20T14:59:59.999Z'))).toBe('2026-11-20');
    expect(salesDate(new Date('2026-11-20T15:00:00.000Z'))).toBe('2026-11-21');
    expect(salesDate(new Date('2026-12-31T15:00:00.000Z'))).toBe('2027-01-01');
  });
});
