import { voucherValueSql } from './amount-due';

/** What a payment's refundable remainder is made of, each as a number (TypeScript) or an expression (SQL). */
export interface RemainderTerms<T> {
  /** The payment's amount. */
  amount: T;
  /** Its succeeded and pending refunds (refund_held_amount). */
  refundHeld: T;
  /** The vouchers it redeemed: voucher value is never paid out as cash. */
  voucherValue: T;
}

/**
 * What a new refund of a completed payment may still take. This and refundableRemainderSql are the
 * one definition (refundable-remainder.integration-spec holds them equal): every guard, read and
 * page of a refund counts the remainder through one of them.
 */
export function refundableRemainder({ amount, refundHeld, voucherValue }: RemainderTerms<number>): number {
  return amount - voucherValue - refundHeld;
}

/** refundableRemainder in SQL, over expressions. */
export function refundableRemainderSql({ amount, refundHeld, voucherValue }: RemainderTerms<string>): string {
  return `(${amount} - ${voucherValue} - ${refundHeld})`;
}

/**
 * The remainder of the payments row whose columns are prefixed by `row` ('' or 'p.') and whose id is
 * the expression `id`.
 */
export function paymentRemainderSql(row: string, id: string): string {
  return refundableRemainderSql({
    amount: `${row}amount`,
    refundHeld: `${row}refund_held_amount`,
    voucherValue: voucherValueSql(id),
  });
}
