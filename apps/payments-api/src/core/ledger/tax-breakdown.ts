/**
 * The VAT split of a payment and its refunds (부가세): what a Korean receipt, a 지출증빙 and a
 * merchant's VAT return read. Amounts are VAT-inclusive whole won; a payment's tax-free part (면세:
 * books, fresh food) carries no VAT. Pure arithmetic beside the settlement arithmetic; the ledger
 * fixes a refund's split once, when it succeeds.
 */

/** VAT inside a VAT-inclusive taxable amount: x/11 to the nearest won, ⌊(x + 5) / 11⌋. */
export function vatIn(taxable: number): number {
  return Math.floor((taxable + 5) / 11);
}

/** vatIn in SQL over a non-negative bigint expression (integer division is the floor there). */
export function vatInSql(taxable: string): string {
  return `((${taxable}) + 5) / 11`;
}

export interface TaxBreakdown {
  taxFreeAmount: number;
  vat: number;
  suppliedAmount: number;
}

/** A payment's split: ₩15,000 → VAT 1,364 and supplied 13,636; with ₩3,000 of ₩10,000 tax-free → 636 and 6,364. */
export function paymentBreakdown(amount: number, taxFreeAmount: number): TaxBreakdown {
  const taxable = amount - taxFreeAmount;
  const vat = vatIn(taxable);
  return { taxFreeAmount, vat, suppliedAmount: taxable - vat };
}

/** What of a payment no refund has taken yet (succeeded and pending refunds both count). */
export interface NotYetRefunded {
  amount: number;
  taxFreeAmount: number;
}

/**
 * A refund's tax-free part when the request names none: its share of what is left, ⌊amount × F / A⌋,
 * so that a refund of the whole remainder takes the whole remaining tax-free part. (BigInt: amount × F
 * reaches 10²⁰, past a double's exact integers.)
 */
export function defaultRefundTaxFree(refundAmount: number, left: NotYetRefunded): number {
  if (left.amount <= 0) return 0;
  return Number((BigInt(refundAmount) * BigInt(left.taxFreeAmount)) / BigInt(left.amount));
}

/**
 * Which rule a refund's tax-free part breaks, or null when it fits: a whole number of won from 0
 * (`not_whole_won`) to the refund's amount (`over_amount`), at most the tax-free part left
 * (`over_tax_free_left`), and its taxable part at most the taxable part left (`over_taxable_left`).
 * The API's and the console's messages name the rule; the ledger refuses whichever it is.
 */
export type RefundTaxFreeProblem = 'not_whole_won' | 'over_amount' | 'over_tax_free_left' | 'over_taxable_left';

export function refundTaxFreeProblem(
  refundAmount: number,
  taxFreeAmount: number,
  left: NotYetRefunded,
): RefundTaxFreeProblem | null {
  if (!Number.isSafeInteger(taxFreeAmount) || taxFreeAmount < 0) return 'not_whole_won';
  if (taxFreeAmount > refundAmount) return 'over_amount';
  if (taxFreeAmount > left.taxFreeAmount) return 'over_tax_free_left';
  if (refundAmount - taxFreeAmount > left.amount - left.taxFreeAmount) return 'over_taxable_left';
  return null;
}

/**
 * Whether a refund's tax-free part fits: from 0 to the refund's amount, at most the tax-free part
 * left, and its taxable part at most the taxable part left.
 */
export function refundTaxFreeFits(refundAmount: number, taxFreeAmount: number, left: NotYetRefunded): boolean {
  return refundTaxFreeProblem(refundAmount, taxFreeAmount, left) === null;
}

/**
 * The VAT and supplied value of a refund that succeeds, by running totals: with P the payment's
 * taxable amount and T₀ the taxable parts its refunds took before, this refund's VAT is
 * VAT(P − T₀) − VAT(P − T₁), T₁ = T₀ + its taxable part. The refunds of a fully refunded payment so
 * add up to the payment's VAT and supplied value to the won.
 */
/**
 * refundVatSplit's VAT in SQL: `id, vat` of each refund whose id is in the text[] expression `ids`,
 * as if it succeeded now: P from its payment, T₀ from the payment's refunds that succeeded before
 * (a payment's refunds succeed one at a time). tax-breakdown.integration-spec holds it equal to
 * refundVatSplit.
 */
export function refundVatSql(ids: string): string {
  return `
    SELECT r.id, ${vatInSql('before.taxable_left')} - ${vatInSql('before.taxable_left - (r.amount - r.tax_free_amount)')} AS vat
    -- Each refund by its id, one probe of the primary key each (OFFSET 0 keeps the subquery per id):
    -- joined with the ids, a plan made while the table was small scanned all of it for every batch.
    FROM unnest(${ids}) AS wanted (id)
    CROSS JOIN LATERAL (SELECT * FROM refunds WHERE refunds.id = wanted.id OFFSET 0) r, LATERAL (
      SELECT p.amount - p.tax_free_amount - coalesce(sum(earlier.amount - earlier.tax_free_amount), 0)::bigint AS taxable_left
      FROM payments p
      -- The payment's own scope too: refunds_payment_status_idx leads with it (no walk of every refund).
      -- The status is a test of the rows found, never an index condition: refunds_queue_idx's succeeded
      -- range holds every refund, and the planner walked it when it guessed the table small.
      LEFT JOIN refunds earlier ON earlier.merchant_id = p.merchant_id AND earlier.livemode = p.livemode
        AND earlier.payment_id = p.id AND (earlier.status = 'succeeded') IS TRUE
      WHERE p.id = r.payment_id
      GROUP BY p.id
    ) before`;
}

export function refundVatSplit(
  paymentTaxable: number,
  taxableRefundedBefore: number,
  refundTaxable: number,
): { vat: number; suppliedAmount: number } {
  const vat =
    vatIn(paymentTaxable - taxableRefundedBefore) - vatIn(paymentTaxable - taxableRefundedBefore - refundTaxable);
  return { vat, suppliedAmount: refundTaxable - vat };
}
