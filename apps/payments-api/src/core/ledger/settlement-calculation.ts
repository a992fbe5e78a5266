/** VAT on the fee, in percent (Korean VAT). */
export const VAT_PERCENT = 10;

/** The highest fee rate (50%: a net payout is never negative), fixed by the operator API's contract. */
import { MAX_FEE_BPS } from '@payhook/contracts';

export { MAX_FEE_BPS };

/** The time zone whose calendar date is a payment's sales date. */
export const SALES_TIME_ZONE = 'Asia/Seoul';

export interface SettlementAmounts {
  grossAmount: number;
  feeAmount: number;
  vatAmount: number;
  netAmount: number;
}

/**
 * Splits a completed payment's amount in whole won. Rounding rule: the fee and the VAT are each rounded
 * down to the won (원 미만 절사), and the net payout is what remains, so gross = fee + VAT + net holds
 * exactly and every rounding remainder goes to the merchant.
 */
export function settlementAmounts(grossAmount: number, feeBps: number): SettlementAmounts {
  if (!Number.isSafeInteger(grossAmount) || grossAmount < 0) throw new RangeError('grossAmount must be whole won');
  if (!Number.isInteger(feeBps) || feeBps < 0 || feeBps > MAX_FEE_BPS) throw new RangeError('feeBps out of range');
  // gross ≤ 10^10 and bps ≤ 5·10^3 keep the product below 2^53: exact in a double.
  const feeAmount = Math.floor((grossAmount * feeBps) / 10_000);
  const vatAmount = Math.floor((feeAmount * VAT_PERCENT) / 100);
  return { grossAmount, feeAmount, vatAmount, netAmount: grossAmount - feeAmount - vatAmount };
}

/**
 * The settlement record of one succeeded refund: negative amounts that give back the
 * fee and VAT by difference of running totals. With R₀ refunded before and R₁ = R₀ + refundAmount,
 * the fee is −(fee(R₁) − fee(R₀)) and the VAT −(VAT(R₁) − VAT(R₀)), each rounded as settlementAmounts
 * rounds a payment, and the net is what remains. So gross = fee + VAT + net holds on every record, and
 * once the whole amount is refunded the payment's record and its refunds' records sum to zero in
 * every column, whatever the parts and their order. Fee and VAT are never positive; the net is not
 * positive either, except by one won on a 1-won refund whose won crosses both a fee and a VAT step
 * (399 → 400 won at 250 bps returns 1 won of fee and 1 won of VAT: net +1).
 */
export function refundSettlementAmounts(
  refundedBefore: number,
  refundAmount: number,
  feeBps: number,
): SettlementAmounts {
  if (!Number.isSafeInteger(refundedBefore) || refundedBefore < 0)
    throw new RangeError('refundedBefore must be whole won');
  if (!Number.isSafeInteger(refundAmount) || refundAmount < 1)
    throw new RangeError('refundAmount must be whole won, at least 1');
  const before = settlementAmounts(refundedBefore, feeBps);
  const after = settlementAmounts(refundedBefore + refundAmount, feeBps);
  // before − after rather than −(after − before): a step of 0 stays 0, not −0.
  return {
    grossAmount: -refundAmount,
    feeAmount: before.feeAmount - after.feeAmount,
    vatAmount: before.vatAmount - after.vatAmount,
    netAmount: before.netAmount - after.netAmount,
  };
}

// en-CA formats dates as YYYY-MM-DD. Built once: a formatter is costly to make and cheap to use.
const SALES_DATE_FORMAT = new Intl.DateTimeFormat('en-CA', {
  timeZone: SALES_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** A `YYYY-MM-DD` that names a real calendar day from 1970 to 9998 (2026-02-30 does not). */
export function isCalendarDay(day: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return false;
  const [year, month, date] = day.split('-').map(Number);
  if (year < 1970 || year > 9998) return false;
  const probe = new Date(Date.UTC(year, month - 1, date));
  return probe.getUTCFullYear() === year && probe.getUTCMonth() === month - 1 && probe.getUTCDate() === date;
}

/** `YYYY-MM-DD` of the instant's calendar date in Asia/Seoul. */
export function salesDate(completedAt: Date): string {
  return SALES_DATE_FORMAT.format(completedAt);
}
