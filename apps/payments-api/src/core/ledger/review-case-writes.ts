import { newId, type ReviewAction } from '@payhook/contracts';
import type { Sql } from '@payhook/persistence';

/**
 * What brought the money to review: a bank deposit, voucher PINs worth more than the amount, or an
 * escrow the buyer rejected (its payout held).
 */
export type ReviewSource = 'deposit' | 'vouchers' | 'escrow';

export interface NewReviewCase {
  livemode: boolean;
  source: ReviewSource;
  /** Why the money could not be matched on its own (ReviewReason in money/reviews lists them). */
  reason: string;
  amount: number;
  merchantId: string | null;
  paymentId: string | null;
}

export interface Resolution {
  action: ReviewAction;
  resolvedBy: string;
  note: string | null;
  /** Money owed back to the payer (a refund resolution, or a deposit above what was due). */
  refundAmount: number | null;
  paymentId: string | null;
}

/**
 * Money that could not be matched on its own, and what the operator decided about it (money/reviews):
 * a case is opened in the transaction that received the money and resolved in the one that moves it.
 */
export class ReviewCaseWrites {
  constructor(private readonly sql: Sql) {}

  async open(input: NewReviewCase): Promise<string> {
    const id = newId('reviewCase');
    await this.sql(
      `INSERT INTO review_cases (id, livemode, source, reason, amount, merchant_id, payment_id, status)
       VALUES ($1, $2, $3, $4, $5, $6, $7, 'open')`,
      [id, input.livemode, input.source, input.reason, input.amount, input.merchantId, input.paymentId],
    );
    return id;
  }

  /** Once: a case already resolved is left as it is (the caller locked and checked it). */
  async resolve(id: string, resolution: Resolution): Promise<void> {
    await this.sql(
      `UPDATE review_cases
          SET status = 'resolved', resolution = $2, resolved_by = $3, resolution_note = $4, refund_amount = $5,
              payment_id = COALESCE(payment_id, $6), resolved_at = now()
        WHERE id = $1 AND status = 'open'`,
      [id, resolution.action, resolution.resolvedBy, resolution.note, resolution.refundAmount, resolution.paymentId],
    );
  }
}
