import { Logger } from '@nestjs/common';
import type { Sql } from '@payhook/persistence';
import { addBusinessDays, type PayoutRule } from './business-days';
import {
  VAT_PERCENT,
  refundSettlementAmounts,
  salesDate,
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
 * The merchant's delay and the non-banking days within PAYOUT_HORIZON_DAYS after the sales date `$2`,
 * of the merchant `$1` (a select list over `merchants m`).
 */
export const PAYOUT_TERMS_SQL = `m.settlement_delay_days,
  ARRAY(SELECT to_char(date, 'YYYY-MM-DD') FROM non_banking_days
        WHERE date > $2::date AND date <= $2::date + ${PAYOUT_HORIZON_DAYS}) AS extra_days`;

/** The payout of a record on `sales`: its date and the rule that made it. */
export function payoutOf(sales: string, terms: PayoutTerms): { date: string; rule: PayoutRule } {
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
 * refundSettlementAmounts in SQL, for a statement that writes the record itself: the
 * fee, VAT and net of a refund of `amount` after `before` (R₀) at `bps`, each an SQL expression of
 * bigints. Integer division of non-negative integers is the floor. settlement-sql.integration-spec.ts
 * holds it to the TypeScript reference.
 */
export function refundSettlementSql(before: string, amount: string, bps: string) {
  const fee = (refunded: string) => `((${refunded}) * (${bps}) / 10000)`;
  const vat = (refunded: string) => `(${fee(refunded)} * ${VAT_PERCENT} / 100)`;
  const after = `(${before}) + (${amount})`;
  const feeAmount = `(${fee(before)} - ${fee(after)})`;
  const vatAmount = `(${vat(before)} - ${vat(after)})`;
  return { feeAmount, vatAmount, netAmount: `(-(${amount}) - ${feeAmount} - ${vatAmount})` };
}

/**
 * Says once per process that a refund of a payment settled before records existed returned no fee:
 * its fee rate is unknown, and the merchant's current rate would return a fee it may never have paid.
 */
export function reportLegacyRefund(paymentId: string): void {
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
}

/** Writes settlement records inside the transaction of the money move they settle. */
export class SettlementWriter {
  constructor(private readonly sql: Sql) {}

  /** The record of a payment that just completed, with the merchant's terms as they are at that moment. */
  async recordPayment(payment: PaymentRecord & { completedAt: Date }): Promise<void> {
    const sales = salesDate(payment.completedAt);
    // The terms and the operator's non-banking days ahead, in the one round trip the terms took alone.
    const [terms] = await this.sql<PayoutTerms & { fee_bps: number }>(
      `SELECT m.fee_bps, ${PAYOUT_TERMS_SQL} FROM merchants m WHERE m.id = $1`,
      [payment.merchantId, sales],
    );
    await this.insert(
      {
        type: 'payment',
        paymentId: payment.id,
        refundId: null,
        merchantId: payment.merchantId,
        livemode: payment.livemode,
        orderId: payment.orderId,
        amounts: settlementAmounts(payment.amount, terms.fee_bps),
        feeBps: terms.fee_bps,
        at: payment.completedAt,
      },
      sales,
      terms,
    );
  }

  /**
   * The record of a refund that just succeeded: negative amounts on the sales date of its
   * success, by difference of running totals from `refundedBefore` (R₀, read under the payment's row
   * lock), at the fee rate the payment was charged (its own record's fee_bps; 0 for a payment settled
   * before records existed, see reportLegacyRefund), paid out by the rule of §8.
   */
  async recordRefund(refund: RefundRecord, refundedBefore: number): Promise<void> {
    if (!refund.succeededAt) throw new Error(`refund ${refund.id} has not succeeded: nothing to settle`);
    const sales = salesDate(refund.succeededAt);
    const [terms] = await this.sql<PayoutTerms & { fee_bps: number | null }>(
      `SELECT (SELECT s.fee_bps FROM settlements s WHERE s.payment_id = $3 AND COALESCE(s.refund_id, '') = '') AS fee_bps,
         ${PAYOUT_TERMS_SQL}
       FROM merchants m WHERE m.id = $1`,
      [refund.merchantId, sales, refund.paymentId],
    );
    if (terms.fee_bps === null) reportLegacyRefund(refund.paymentId);
    const feeBps = terms.fee_bps ?? 0;
    await this.insert(
      {
        type: 'refund',
        paymentId: refund.paymentId,
        refundId: refund.id,
        merchantId: refund.merchantId,
        livemode: refund.livemode,
        orderId: refund.orderId,
        amounts: refundSettlementAmounts(refundedBefore, refund.amount, feeBps),
        feeBps,
        at: refund.succeededAt,
      },
      sales,
      terms,
    );
  }

  private async insert(record: NewRecord, sales: string, terms: PayoutTerms): Promise<void> {
    const payout = payoutOf(sales, terms);
    const { amounts } = record;
    await this.sql(
      `INSERT INTO settlements (payment_id, merchant_id, livemode, order_id, gross_amount, fee_bps, fee_amount,
         vat_amount, net_amount, sales_date, payout_date, payout_rule, completed_at, type, refund_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
      [
        record.paymentId,
        record.merchantId,
        record.livemode,
        record.orderId,
        amounts.grossAmount,
        record.feeBps,
        amounts.feeAmount,
        amounts.vatAmount,
        amounts.netAmount,
        sales,
        payout.date,
        payout.rule,
        record.at,
        record.type,
        record.refundId,
      ],
    );
  }
}
