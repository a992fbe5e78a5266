import fc from 'fast-check';
import { MAX_AMOUNT } from '@payhook/contracts';
import { MAX_FEE_BPS, refundSettlementAmounts, salesDate, settlementAmounts } from './settlement-calculation';

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

describe('refundSettlementAmounts', () => {
  const amounts = (gross: number, fee: number, vat: number, net: number) => ({
    grossAmount: gross,
    feeAmount: fee,
    vatAmount: vat,
    netAmount: net,
  });

  it('gives back exactly the payment record when the whole amount is refunded at once', () => {
    // 15,000 won at 250 bps: fee 375, VAT 37, net 14,588 (the table above).
    expect(refundSettlementAmounts(0, 15_000, 250)).toEqual(amounts(-15_000, -375, -37, -14_588));
  });

  it('returns the fee by running totals over three parts, which sum to the payment record negated', () => {
    // 10,000 won at 250 bps: fee 250, VAT 25, net 9,725.
    // 0 → 3,333: fee(3,333) = 83, VAT(83) = 8.
    expect(refundSettlementAmounts(0, 3_333, 250)).toEqual(amounts(-3_333, -83, -8, -3_242));
    // 3,333 → 6,666: fee(6,666) = 166, VAT(166) = 16.
    expect(refundSettlementAmounts(3_333, 3_333, 250)).toEqual(amounts(-3_333, -83, -8, -3_242));
    // 6,666 → 10,000: fee(10,000) = 250, VAT(250) = 25.
    expect(refundSettlementAmounts(6_666, 3_334, 250)).toEqual(amounts(-3_334, -84, -9, -3_241));
    expect([-83 - 83 - 84, -8 - 8 - 9, -3_242 - 3_242 - 3_241]).toEqual([-250, -25, -9_725]);
  });

  it('returns no fee for a part too small to move the running fee, and 0 rather than -0', () => {
    const part = refundSettlementAmounts(0, 39, 250); // fee(39) = 0
    expect(part).toEqual(amounts(-39, 0, 0, -39));
    expect(Object.is(part.feeAmount, 0) && Object.is(part.vatAmount, 0)).toBe(true);
  });

  it('may pay the merchant 1 won on a 1-won refund that crosses a fee and a VAT step', () => {
    // fee(399) = 9, VAT 0; fee(400) = 10, VAT 1: the won returns 1 of fee and 1 of VAT.
    expect(refundSettlementAmounts(399, 1, 250)).toEqual(amounts(-1, -1, -1, 1));
  });

  it('refuses amounts and rates that are not whole numbers in range', () => {
    expect(() => refundSettlementAmounts(-1, 100, 250)).toThrow(RangeError);
    expect(() => refundSettlementAmounts(0, 0, 250)).toThrow(RangeError);
    expect(() => refundSettlementAmounts(0, 1.5, 250)).toThrow(RangeError);
    expect(() => refundSettlementAmounts(0, 100, MAX_FEE_BPS + 1)).toThrow(RangeError);
  });
});

describe('salesDate', () => {
  it('is the calendar date in Asia/Seoul (UTC+9), not in UTC', () => {
    expect(salesDate(new Date('2026-11-20T14:59:59.999Z'))).toBe('2026-11-20');
    expect(salesDate(new Date('2026-11-20T15:00:00.000Z'))).toBe('2026-11-21');
    expect(salesDate(new Date('2026-12-31T15:00:00.000Z'))).toBe('2027-01-01');
  });
});
