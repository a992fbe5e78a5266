import type { MerchantScope } from '@payhook/auth';
import {
  FAILING_TEST_IDENTITY_NUMBER,
  IDENTITY_REJECTED,
  SELF_ISSUE_MIN_AMOUNT,
  newId,
  type CashReceiptType,
} from '@payhook/contracts';
import type { Sql } from '@payhook/persistence';
import {
  CASH_RECEIPT_COLUMNS,
  toCashReceiptRecord,
  type CashReceiptRecord,
  type CashReceiptRow,
} from './cash-receipt-record';
import { toNewCashReceiptEvent, type EventWriter } from './event-writer';
import { CASH_RECEIPT_MOVES, movableFromSql } from './moves-table';
import type { PaymentRecord } from './payment-record';
import { vatInSql } from './tax-breakdown';

/** A buyer's request for a receipt as the payment row keeps it until the receipt is made. */
export interface CashReceiptAsk {
  type: CashReceiptType;
  /** Sealed under SECRETS_KEY, bound to the payment (the API seals it). */
  identityNumberSealed: string;
  /** Every digit but the last four as `*`. */
  identityNumberMasked: string;
  /**
   * How a test receipt for it will fail (the documented failing test number), decided where the
   * number is still in the clear, so that making the receipt needs no key; null in live mode.
   */
  testFailure: string | null;
}

/** Why no receipt was made for a request on a completed payment. */
export type CashReceiptRefusal = 'payment_not_found' | 'payment_not_completed' | 'nothing_left' | 'receipt_exists';

/** The failure a test receipt will have for this number, or null (live receipts wait for the tax office). */
export function testFailureOf(livemode: boolean, identityNumber: string): string | null {
  return !livemode && identityNumber === FAILING_TEST_IDENTITY_NUMBER ? IDENTITY_REJECTED : null;
}

/** The mask of the tax office's own number, the buyer of a self-issued receipt. */
export const SELF_ISSUED_MASK = '******1234';

/** Why a pending cancel receipt failed with its issue receipt. */
export const ISSUE_RECEIPT_FAILED = 'issue_receipt_failed';

/** A random 9-digit approval number, as a test receipt gets at once (SQL). */
const TEST_ISSUE_NUMBER_SQL = `to_char(floor(random() * 1000000000), 'FM000000000')`;

/**
 * A new receipt's status and its columns that follow from it, by mode: a live receipt waits for the
 * operator; a test receipt is issued at once, or failed with `testFailure` (an SQL expression).
 */
const initialStatusSql = (livemode: string, testFailure: string) => `
  CASE WHEN ${livemode} THEN 'pending' WHEN ${testFailure} IS NOT NULL THEN 'failed' ELSE 'issued' END,
  CASE WHEN NOT ${livemode} AND ${testFailure} IS NULL THEN ${TEST_ISSUE_NUMBER_SQL} END,
  CASE WHEN NOT ${livemode} THEN ${testFailure} END,
  date_trunc('milliseconds', now()),
  CASE WHEN NOT ${livemode} AND ${testFailure} IS NULL THEN date_trunc('milliseconds', now()) END,
  CASE WHEN NOT ${livemode} AND ${testFailure} IS NOT NULL THEN date_trunc('milliseconds', now()) END`;

/**
 * The cancel receipts of refunds moved to succeeded in the same statement (a CTE `moved` of refunds
 * rows), one per refund whose payment has an issue receipt pending or issued: the refund's amounts,
 * the issue receipt's type and buyer, issued at once in test mode. `receiptIds`: a text[] expression
 * pairing each refund id of `refundIds` with a new receipt id. RefundWrites.succeed runs it in its
 * own statement, so a refund of a payment without receipts costs no round trip.
 */
export function cancelReceiptsSql(refundIds: string, receiptIds: string): string {
  return `
    INSERT INTO cash_receipts (${CASH_RECEIPT_COLUMNS})
    SELECT c.receipt_id, moved.merchant_id, moved.livemode, moved.payment_id, moved.id, moved.order_id, 'cancel', i.type,
           i.identity_number_sealed, i.identity_number_masked, i.self_issued,
           moved.amount, moved.tax_free_amount, moved.vat, moved.supplied_amount,
           ${initialStatusSql('moved.livemode', 'NULL::text')}
    FROM moved
    JOIN unnest(${refundIds}, ${receiptIds}) AS c (refund_id, receipt_id) ON c.refund_id = moved.id
    JOIN cash_receipts i ON i.payment_id = moved.payment_id AND i.transaction_type = 'issue'
                        AND i.status IN ('pending', 'issued')
    RETURNING ${CASH_RECEIPT_COLUMNS}`;
}

/**
 * Every write of cash receipts (현금영수증), issue 51. A receipt is made in the transaction of the
 * move that causes it: a payment's completion (what was asked before, or a self-issue), a request on
 * a completed payment, a refund's success (its cancel receipt: RefundWrites.succeed), the operator's
 * answer. The database decides races: an issue receipt is made under its payment's row lock (the
 * completion's UPDATE, or lockForRequest) and cash_receipts_one_open_issue allows one pending or
 * issued per payment, so requests at once make one receipt. Each transition writes its event.
 */
export class CashReceiptWrites {
  constructor(
    private readonly sql: Sql,
    private readonly events: EventWriter,
  ) {}

  /**
   * A request before completion (the payment screen's form, create's is in its row): kept on the
   * payment, masked for the buyer to see, until the completion makes the receipt. Null when the
   * payment is not pending (or no longer payable) in the scope (`null`: the payment screen's
   * payment, found by its link).
   */
  async askBeforeCompletion(scope: MerchantScope | null, paymentId: string, ask: CashReceiptAsk): Promise<boolean> {
    const rows = await this.sql(
      `UPDATE payments SET cash_receipt_type = $2, cash_receipt_identity_sealed = $3, cash_receipt_identity_masked = $4,
                           cash_receipt_test_failure = $5, updated_at = now()
       WHERE id = $1 AND status = 'pending' AND expires_at > now()
         AND ($6::text IS NULL OR (merchant_id = $6 AND livemode = $7))
       RETURNING id`,
      [
        paymentId,
        ask.type,
        ask.identityNumberSealed,
        ask.identityNumberMasked,
        ask.testFailure,
        scope?.merchantId ?? null,
        scope?.livemode ?? null,
      ],
      'ask-cash-receipt',
    );
    return rows.length > 0;
  }

  /**
   * A request on a completed payment of the scope: under the payment's row lock, refused when the
   * payment is not there or not completed, has nothing left to cover, or has a receipt pending or
   * issued; else kept on the payment and made into its issue receipt at once. The open receipt is
   * looked for in a statement of its own, after the lock: a statement that waited for the lock still
   * reads the rest of the database as it was when it began, before the receipt of the request it
   * waited on.
   */
  async requestForCompleted(
    scope: MerchantScope,
    paymentId: string,
    ask: CashReceiptAsk,
  ): Promise<CashReceiptRecord | CashReceiptRefusal> {
    const [payment] = await this.sql<{ status: string; unrefunded: string }>(
      `SELECT status, amount - refunded_amount AS unrefunded FROM payments
       WHERE id = $1 AND merchant_id = $2 AND livemode = $3 FOR UPDATE`,
      [paymentId, scope.merchantId, scope.livemode],
      'lock-for-cash-receipt',
    );
    if (!payment) return 'payment_not_found';
    if (payment.status !== 'completed') return 'payment_not_completed';
    if (Number(payment.unrefunded) <= 0) return 'nothing_left';
    const open = await this.sql(
      `SELECT 1 FROM cash_receipts
       WHERE payment_id = $1 AND transaction_type = 'issue' AND status IN ('pending', 'issued')`,
      [paymentId],
      'open-issue-receipt',
    );
    if (open.length > 0) return 'receipt_exists';
    await this.sql(
      `UPDATE payments SET cash_receipt_type = $2, cash_receipt_identity_sealed = $3, cash_receipt_identity_masked = $4,
                           cash_receipt_test_failure = $5, updated_at = now()
       WHERE id = $1`,
      [paymentId, ask.type, ask.identityNumberSealed, ask.identityNumberMasked, ask.testFailure],
      'keep-cash-receipt-request',
    );
    const [receipt] = await this.issueFor([paymentId], { selfIssue: false });
    // Under the lock no other issue receipt can be made; the unique index would refuse one anyway.
    return receipt ?? 'receipt_exists';
  }

  /**
   * The issue receipts of payments that just completed: the one asked for before, or for a merchant
   * marked cashReceiptRequired a self-issued one for ₩100,000 or more. A payment that can need none
   * costs no statement.
   */
  async issueAtCompletion(payments: readonly PaymentRecord[]): Promise<CashReceiptRecord[]> {
    const candidates = payments.filter(
      (payment) => payment.cashReceiptAsked !== null || payment.amount >= SELF_ISSUE_MIN_AMOUNT,
    );
    if (candidates.length === 0) return [];
    return this.issueFor(
      candidates.map(({ id }) => id),
      { selfIssue: true },
    );
  }

  /**
   * The operator's report of the tax office's answer: pending → issued with its number, or failed
   * with the reason, once (a compare-and-set), with its event. An issue receipt that fails takes its
   * pending cancel receipts with it (ISSUE_RECEIPT_FAILED): there is nothing at the tax office for
   * them to cancel; a cancel receipt is issued only once its issue receipt is. Under the payment's
   * row lock, as a refund's success takes it, so that no cancel receipt is made beside the failure.
   * Null when it did not move: not there, not pending, or a cancel whose issue receipt is not issued.
   */
  async decide(
    id: string,
    answer: { status: 'issued'; issueNumber: string } | { status: 'failed'; reason: string },
  ): Promise<CashReceiptRecord | null> {
    await this.sql(
      `SELECT p.id FROM payments p WHERE p.id = (SELECT payment_id FROM cash_receipts WHERE id = $1) FOR UPDATE OF p`,
      [id],
      'lock-payment-of-cash-receipt',
    );
    const issued = answer.status === 'issued';
    const [receipt] = await this.move(
      [id],
      answer.status,
      issued ? answer.issueNumber : null,
      issued ? null : answer.reason,
    );
    if (!receipt) return null;
    const followers =
      receipt.status === 'failed' && receipt.transactionType === 'issue'
        ? await this.move(
            (
              await this.sql<{ id: string }>(
                `SELECT id FROM cash_receipts
                 WHERE payment_id = $1 AND transaction_type = 'cancel' AND status = 'pending' ORDER BY id`,
                [receipt.paymentId],
                'pending-cancel-receipts',
              )
            ).map((row) => row.id),
            'failed',
            null,
            ISSUE_RECEIPT_FAILED,
          )
        : [];
    await this.events.record([receipt, ...followers].map(toNewCashReceiptEvent));
    return receipt;
  }

  /** Pending receipts moved to `status` by the operator's rules (CASH_RECEIPT_MOVES), each once. */
  private async move(
    ids: readonly string[],
    status: 'issued' | 'failed',
    issueNumber: string | null,
    failureReason: string | null,
  ): Promise<CashReceiptRecord[]> {
    if (ids.length === 0) return [];
    const rows = await this.sql<CashReceiptRow>(
      `UPDATE cash_receipts
       SET status = $2, issue_number = $3, failure_reason = $4,
           issued_at = CASE WHEN $2 = 'issued' THEN GREATEST(date_trunc('milliseconds', now()), created_at) END,
           failed_at = CASE WHEN $2 = 'failed' THEN GREATEST(date_trunc('milliseconds', now()), created_at) END
       WHERE id = ANY ($1::text[]) AND status IN (${movableFromSql(CASH_RECEIPT_MOVES, status, 'operator')})
         -- A cancel receipt is issued only against an issued receipt: the tax office cancels what it issued.
         AND ($2 = 'failed' OR transaction_type = 'issue' OR EXISTS (
               SELECT 1 FROM cash_receipts i
               WHERE i.payment_id = cash_receipts.payment_id AND i.transaction_type = 'issue' AND i.status = 'issued'))
       RETURNING ${CASH_RECEIPT_COLUMNS}`,
      [ids, status, issueNumber, failureReason],
      'decide-cash-receipts',
    );
    return rows.map(toCashReceiptRecord);
  }

  /**
   * The events of receipts just made issued or failed (test mode); a pending one has none yet.
   * RefundWrites.succeed records its cancel receipts' events with the refunds' own.
   */
  static announced(receipts: readonly CashReceiptRecord[]): CashReceiptRecord[] {
    return receipts.filter((receipt) => receipt.status !== 'pending');
  }

  /**
   * Issue receipts for the payments whose request is on their row (and with `selfIssue`, the
   * self-issued ones of merchants that must), covering what was paid and not refunded: the amount
   * less succeeded refunds, the tax-free part less theirs, VAT by VAT() on the taxable rest. A payment
   * with an open issue receipt gets none (ON CONFLICT: cash_receipts_one_open_issue).
   */
  private async issueFor(
    paymentIds: readonly string[],
    { selfIssue }: { selfIssue: boolean },
  ): Promise<CashReceiptRecord[]> {
    const rows = await this.sql<CashReceiptRow>(
      `INSERT INTO cash_receipts (${CASH_RECEIPT_COLUMNS})
       SELECT c.receipt_id, p.merchant_id, p.livemode, p.id, NULL, p.order_id, 'issue',
              coalesce(p.cash_receipt_type, 'income_deduction'), p.cash_receipt_identity_sealed,
              coalesce(p.cash_receipt_identity_masked, $4), p.cash_receipt_type IS NULL,
              covered.amount, covered.tax_free, ${vatInSql('covered.amount - covered.tax_free')},
              covered.amount - covered.tax_free - ${vatInSql('covered.amount - covered.tax_free')},
              ${initialStatusSql('p.livemode', 'p.cash_receipt_test_failure')}
       FROM unnest($1::text[], $2::text[]) AS c (payment_id, receipt_id)
       JOIN payments p ON p.id = c.payment_id
       JOIN merchants m ON m.id = p.merchant_id
       CROSS JOIN LATERAL (
         SELECT p.amount - p.refunded_amount AS amount,
                p.tax_free_amount - coalesce(sum(r.tax_free_amount), 0)::bigint AS tax_free
         FROM refunds r
         WHERE r.merchant_id = p.merchant_id AND r.livemode = p.livemode AND r.payment_id = p.id
           AND r.status = 'succeeded'
       ) covered
       WHERE p.id = ANY ($1::text[]) AND p.status = 'completed' AND covered.amount > 0
         AND (p.cash_receipt_type IS NOT NULL OR ($3 AND m.cash_receipt_required AND p.amount >= $5))
       ON CONFLICT DO NOTHING
       RETURNING ${CASH_RECEIPT_COLUMNS}`,
      [paymentIds, paymentIds.map(() => newId('cashReceipt')), selfIssue, SELF_ISSUED_MASK, SELF_ISSUE_MIN_AMOUNT],
      'issue-cash-receipts',
    );
    const receipts = rows.map(toCashReceiptRecord);
    await this.events.record(CashReceiptWrites.announced(receipts).map(toNewCashReceiptEvent));
    return receipts;
  }
}
