import { Logger } from '@nestjs/common';
import { jsonRecords, type Sql } from '@payhook/persistence';
import { addBusinessDays, type PayoutRule } from './business-days';
import {
  refundSettlementAmounts,
  salesDate,
  SALES_TIME_ZONE,
  settlementAmounts,
  type SettlementAmounts,
} from './settlement-calculation';
import type { PaymentRecord } from './payment-record';
import type { RefundRecord } from './refund-record';

/** The furthest a payout can lie after its sales date: 30 banking days with every holiday in between. */
const PAYOUT_HORIZON_DAYS = 120;
const logger = new Logger('Settlements');
/** Years already reported as unknown, so the log says it once per year and process. */
const reportedUnknownYears = new Set<number>();
/** Whether a refund of a payment without a settlement record of its own was reported (reportLegacyRefund). */
let legacyReported = false;

/** What the payout date of a sales date depends on: the merchant's delay and the operator's non-banking days. */
export interface PayoutTerms {
  settlement_delay_days: number;
  extra_days: string[];
}

/**
 * The merchant's delay and the non-banking days within PAYOUT_HORIZON_DAYS after the sales date `sales`
 * (a date expression), a select list over `merchants m`.
 */
const payoutTermsSql = (sales: string) => `m.settlement_delay_days,
  ARRAY(SELECT to_char(date, 'YYYY-MM-DD') FROM non_banking_days
        WHERE date > ${sales} AND date <= ${sales} + ${PAYOUT_HORIZON_DAYS}) AS extra_days`;

/** What a refund's settlement record needs beside the refund: read by the statement that moves it (refundSettlementTermsSql). */
export interface RefundSettlementTerms extends PayoutTerms {
  /** The sales date the terms were read for: the success's date in Asia/Seoul, as salesDate() says. */
  sales_date: string;
  /** The fee rate of the payment's own record; null for a payment settled before records existed. */
  fee_bps: number | null;
  escrow_status: string | null;
}

/**
 * The RefundSettlementTerms of each refund a statement moves to succeeded, so that its record is written
 * in the round trip of its event instead of after a read of its own: a subquery (for a LATERAL join)
 * over `moved` (the moved refunds: merchant_id, payment_id, succeeded_at) and `payment` (each refund's
 * payment as the move left it, under its row lock: escrow_status), its rows selected as `terms`.
 * The sales date is computed as salesDate() computes it (recordRefunds holds the two together).
 */
export const refundSettlementTermsSql = (moved: string, payment: string) =>
  `SELECT to_char(sales.date, 'YYYY-MM-DD') AS sales_date, ${payoutTermsSql('sales.date')},
          (SELECT s.fee_bps FROM settlements s
            WHERE s.payment_id = ${moved}.payment_id AND COALESCE(s.refund_id, '') = '') AS fee_bps,
          ${payment}.escrow_status
   FROM merchants m, (SELECT (${moved}.succeeded_at AT TIME ZONE '${SALES_TIME_ZONE}')::date AS date) sales
   WHERE m.id = ${moved}.merchant_id`;

/** What a completed payment's settlement record needs beside the payment: read in the round trip of its move. */
export interface PaymentSettlementTerms extends PayoutTerms {
  /** The sales date the terms were read for: the completion's date in Asia/Seoul, as salesDate() says. */
  sales_date: string;
  fee_bps: number;
}

/** The payout of a record on `sales`: its date and the rule that made it. */
function payoutOf(sales: string, terms: PayoutTerms): { date: string; rule: PayoutRule } {
  const payout = addBusinessDays(sales, terms.settlement_delay_days, new Set(terms.extra_days));
  for (const year of payout.unknownYears.filter((one) => !reportedUnknownYears.has(one))) {
    reportedUnknownYears.add(year);
    logger.warn(
      `Korean public holidays of ${year} are not known yet (@hyunbinseo/holidays-kr): payout dates in ${year} ` +
        `skip weekends and operator-added days only, and their settlements say payoutRule weekdays_only`,
    );
  }
  return { date: payout.date, rule: payout.rule };
}

/**
 * Says once per process that a refund of a payment settled before records existed returned no fee:
 * its fee rate is unknown, and the merchant's current rate would return a fee it may never have paid.
 */
function reportLegacyRefund(paymentId: string): void {
  if (legacyReported) return;
  legacyReported = true;
  logger.warn(
    `Payment ${paymentId} has no settlement record of its own (completed before records existed): its refund ` +
      `records return fee 0 and VAT 0 (net = gross). Said once per process.`,
  );
}
/** The columns of one record; a payment record has no refundId. */
interface NewRecord {
  type: 'payment' | 'refund';
  paymentId: string;
  refundId: string | null;
  merchantId: string;
  livemode: boolean;
  orderId: string;
  amounts: SettlementAmounts;
  feeBps: number;
  /** The record's instant: the payment's completion, or the refund's success. */
  at: Date;
  /** An escrow payment's record waits for the buyer's confirmation: no payout date until then. */
  held: boolean;
}

/** Whether the records of a payment with this escrow status are held (an escrow not confirmed yet). */
const heldBy = (escrowStatus: string | null | undefined): boolean => !!escrowStatus && escrowStatus !== 'confirmed';

/** Writes settlement records inside the transaction of the money move they settle. */
export class SettlementWriter {
  constructor(private readonly sql: Sql) {}

  /**
   * The terms of the payment `paymentId` as its completion left it (the merchant's as they are at that
   * moment), or undefined when it is not completed. Sent right after the statement that completes it,
   * without waiting for its answer: both go out in one round trip, and the record is written in the
   * next with the completion's other writes.
   */
  async completionTerms(paymentId: string): Promise<PaymentSettlementTerms | undefined> {
    const [terms] = await this.sql<PaymentSettlementTerms>(
      `SELECT to_char(sales.date, 'YYYY-MM-DD') AS sales_date, m.fee_bps, ${payoutTermsSql('sales.date')}
       FROM payments p JOIN merchants m ON m.id = p.merchant_id
       CROSS JOIN LATERAL (SELECT (p.completed_at AT TIME ZONE '${SALES_TIME_ZONE}')::date AS date) sales
       WHERE p.id = $1 AND p.status = 'completed'`,
      [paymentId],
      'payment-settlement-terms',
    );
    return terms;
  }

  /** The record of a payment that just completed, on the terms completionTerms() read with its move. */
  async recordPayment(payment: PaymentRecord & { completedAt: Date }, terms: PaymentSettlementTerms): Promise<void> {
    const sales = salesDate(payment.completedAt);
    if (sales !== terms.sales_date)
      throw new Error(`payment ${payment.id}: terms read for ${terms.sales_date}, its sales date is ${sales}`);
    await this.insert([
      {
        record: {
          type: 'payment',
          paymentId: payment.id,
          refundId: null,
          merchantId: payment.merchantId,
          livemode: payment.livemode,
          orderId: payment.orderId,
          amounts: settlementAmounts(payment.amount, terms.fee_bps),
          feeBps: terms.fee_bps,
          at: payment.completedAt,
          held: heldBy(payment.escrow?.status),
        },
        sales,
        terms,
      },
    ]);
  }

  /**
   * The records of refunds that just succeeded (of distinct payments): negative amounts on the sales
   * date of each success, by difference of running totals from `refundedBefore` (R₀, read under the
   * payment's row lock), at the fee rate the payment was charged (its own record's fee_bps; 0 for a
   * payment settled before records existed, see reportLegacyRefund), paid out by the payout rule, or
   * held with the payment's own record while its escrow waits for the buyer. `terms` were read by the
   * move itself (refundSettlementTermsSql), after the payment's row lock, so a confirmation committed
   * before is seen and one after sees this record: one statement, no read.
   */
  async recordRefunds(
    succeeded: readonly { refund: RefundRecord; refundedBefore: number; terms: RefundSettlementTerms }[],
  ): Promise<void> {
    await this.insert(
      succeeded.map(({ refund, refundedBefore, terms }): { record: NewRecord; sales: string; terms: PayoutTerms } => {
        const sales = salesDate(succeededAt(refund));
        if (sales !== terms.sales_date)
          throw new Error(`refund ${refund.id}: terms read for ${terms.sales_date}, its sales date is ${sales}`);
        if (terms.fee_bps === null) reportLegacyRefund(refund.paymentId);
        const feeBps = terms.fee_bps ?? 0;
        return {
          record: {
            type: 'refund',
            paymentId: refund.paymentId,
            refundId: refund.id,
            merchantId: refund.merchantId,
            livemode: refund.livemode,
            orderId: refund.orderId,
            amounts: refundSettlementAmounts(refundedBefore, refund.amount, feeBps),
            feeBps,
            at: succeededAt(refund),
            held: heldBy(terms.escrow_status),
          },
          sales,
          terms,
        };
      }),
    );
  }

  /**
   * The held records of payments whose escrow the buyer just confirmed (or the auto-confirm task did):
   * scheduled, paid out on the merchant's delay counted from the confirmation's date in Asia/Seoul.
   */
  async releaseHeld(confirmed: readonly { paymentId: string; merchantId: string; confirmedAt: Date }[]): Promise<void> {
    const payouts: { paymentId: string; date: string; rule: PayoutRule }[] = [];
    // A batch's confirmations share a few merchants and days: one read of terms each.
    const termsOf = new Map<string, PayoutTerms>();
    for (const { paymentId, merchantId, confirmedAt } of confirmed) {
      const day = salesDate(confirmedAt);
      let terms = termsOf.get(`${merchantId} ${day}`);
      if (!terms) {
        [terms] = await this.sql<PayoutTerms>(`SELECT ${payoutTermsSql('$2::date')} FROM merchants m WHERE m.id = $1`, [
          merchantId,
          day,
        ]);
        termsOf.set(`${merchantId} ${day}`, terms);
      }
      payouts.push({ paymentId, ...payoutOf(day, terms) });
    }
    if (payouts.length === 0) return;
    await this.sql(
      `UPDATE settlements s SET payout_status = 'scheduled', payout_date = r.payout_date, payout_rule = r.payout_rule
       FROM unnest($1::text[], $2::date[], $3::text[]) AS r (payment_id, payout_date, payout_rule)
       WHERE s.payment_id = r.payment_id AND s.payout_status = 'held'`,
      [payouts.map((one) => one.paymentId), payouts.map((one) => one.date), payouts.map((one) => one.rule)],
    );
  }

  /** The records in one statement. */
  private async insert(records: readonly { record: NewRecord; sales: string; terms: PayoutTerms }[]): Promise<void> {
    if (records.length === 0) return;
    const rows = records.map(({ record, sales, terms }) => {
      const payout = record.held ? null : payoutOf(sales, terms);
      return {
        ...record,
        ...record.amounts,
        sales,
        payoutStatus: record.held ? 'held' : 'scheduled',
        payoutDate: payout?.date ?? null,
        payoutRule: payout?.rule ?? null,
      };
    });
    await this.sql(
      `INSERT INTO settlements (payment_id, merchant_id, livemode, order_id, gross_amount, fee_bps, fee_amount,
         vat_amount, net_amount, sales_date, payout_date, payout_rule, completed_at, type, refund_id, payout_status)
       SELECT "paymentId", "merchantId", livemode, "orderId", "grossAmount", "feeBps", "feeAmount", "vatAmount",
              "netAmount", sales, "payoutDate", "payoutRule", at, type, "refundId", "payoutStatus"
       FROM json_to_recordset($1::json)
         AS r ("paymentId" text, "merchantId" text, livemode boolean, "orderId" text, "grossAmount" bigint,
               "feeBps" int, "feeAmount" bigint, "vatAmount" bigint, "netAmount" bigint, sales date, "payoutDate" date,
               "payoutRule" text, at timestamptz, type text, "refundId" text, "payoutStatus" text)`,
      [jsonRecords(rows)],
      // One for every completion and refund batch: parsed and planned once per connection.
      'insert-settlements',
    );
  }
}

function succeededAt(refund: RefundRecord): Date {
  if (!refund.succeededAt) throw new Error(`refund ${refund.id} has not succeeded: nothing to settle`);
  return refund.succeededAt;
}
