import type { Sql } from '@payhook/persistence';

/** Where deposits come from: the operator's bank feed (live), or one merchant's test helpers. */
export interface DepositFeed {
  name: string;
  livemode: boolean;
  /** Set for a test feed: its deposits can only pay that merchant's test payments. */
  merchantId: string | null;
}

export interface NewDeposit {
  id: string;
  bankTransactionId: string;
  amount: number;
  depositCode: string | null;
  depositorName: string;
  receivedAt?: Date;
}

/** What a recorded deposit came to: it paid a payment, or it waits in a review case. */
export interface DepositOutcome {
  kind: 'matched' | 'review';
  paymentId: string | null;
  reviewCaseId: string | null;
}

/**
 * Money that arrived by bank transfer (money/deposits): recorded once per bank transaction, then
 * settled as matched to a payment or sent to review, in the transaction of the move it causes.
 */
export class DepositWrites {
  constructor(private readonly sql: Sql) {}

  /**
   * Records the deposit unless its bank transaction id is already known: false then. A concurrent copy
   * waits on the unique index until the first commits, so a notification replayed at once is recorded
   * once. The outcome is provisional until `settle` in the same transaction.
   */
  async claim(feed: DepositFeed, deposit: NewDeposit): Promise<boolean> {
    const rows = await this.sql(
      `INSERT INTO deposits (id, feed, livemode, bank_transaction_id, amount, deposit_code, depositor_name,
         received_at, outcome)
       VALUES ($1, $2, $3, $4, $5, $6, $7, COALESCE($8, now()), 'review')
       ON CONFLICT (feed, bank_transaction_id) DO NOTHING
       RETURNING id`,
      [
        deposit.id,
        feed.name,
        feed.livemode,
        deposit.bankTransactionId,
        deposit.amount,
        deposit.depositCode,
        deposit.depositorName,
        deposit.receivedAt ?? null,
      ],
    );
    return rows.length === 1;
  }

  async settle(id: string, outcome: DepositOutcome): Promise<void> {
    await this.sql('UPDATE deposits SET outcome = $2, payment_id = $3, review_case_id = $4 WHERE id = $1', [
      id,
      outcome.kind,
      outcome.paymentId,
      outcome.reviewCaseId,
    ]);
  }

  /** The deposit behind a case completed through review now belongs to that payment. */
  async attachToPayment(reviewCaseId: string, paymentId: string): Promise<void> {
    await this.sql('UPDATE deposits SET payment_id = $2 WHERE review_case_id = $1 AND payment_id IS NULL', [
      reviewCaseId,
      paymentId,
    ]);
  }

  /** The payment this (normalized) code was given to, within the feed's reach. */
  async paymentIdForCode(feed: DepositFeed, code: string): Promise<string | null> {
    const rows = await this.sql<{ id: string }>(
      `SELECT id FROM payments WHERE deposit_code = $1 AND livemode = $2 AND ($3::text IS NULL OR merchant_id = $3)`,
      [code, feed.livemode, feed.merchantId],
    );
    return rows[0]?.id ?? null;
  }
}
