import { Logger } from '@nestjs/common';
import type { Sql } from '@payhook/persistence';
// Pure calculations (no database, no Nest) that the settlements feature shares with the ledger; the
// one import of a feature folder eslint.config.mjs allows here, until they move into the ledger.
import { addBusinessDays } from '../settlements/business-days';
import { salesDate, settlementAmounts } from '../settlements/settlement-calculation';
import type { PaymentRecord } from './payment-record';

/** The furthest a payout can lie after its sales date: 30 banking days with every holiday in between. */
const PAYOUT_HORIZON_DAYS = 120;
const logger = new Logger('Settlements');
/** Years already reported as unknown, so the log says it once per year and process. */
const reportedUnknownYears = new Set<number>();

/** Writes settlement records inside the transaction of the money move they settle. */
export class SettlementWriter {
  constructor(private readonly sql: Sql) {}

  /** The record of a payment that just completed, with the merchant's terms as they are at that moment. */
  async recordPayment(payment: PaymentRecord & { completedAt: Date }): Promise<void> {
    const sales = salesDate(payment.completedAt);
    // The terms and the operator's non-banking days ahead, in the one round trip the terms took alone.
    const [terms] = await this.sql<{ fee_bps: number; settlement_delay_days: number; extra_days: string[] }>(
      `SELECT fee_bps, settlement_delay_days,
         ARRAY(SELECT to_char(date, 'YYYY-MM-DD') FROM non_banking_days
               WHERE date > $2::date AND date <= $2::date + $3::int) AS extra_days
       FROM merchants WHERE id = $1`,
      [payment.merchantId, sales, PAYOUT_HORIZON_DAYS],
    );
    const amounts = settlementAmounts(payment.amount, terms.fee_bps);
    const payout = addBusinessDays(sales, terms.settlement_delay_days, new Set(terms.extra_days));
    for (const year of payout.unknownYears.filter((one) => !reportedUnknownYears.has(one))) {
      reportedUnknownYears.add(year);
      logger.warn(
        `Korean public holidays of ${year} are not known yet (@hyunbinseo/holidays-kr): payout dates in ${year} ` +
          `skip weekends and operator-added days only, and their settlements say payoutRule weekdays_only`,
      );
    }
    await this.sql(
      `INSERT INTO settlements (payment_id, merchant_id, livemode, order_id, gross_amount, fee_bps, fee_amount,
         vat_amount, net_amount, sales_date, payout_date, payout_rule, completed_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
      [
        payment.id,
        payment.merchantId,
        payment.livemode,
        payment.orderId,
        amounts.grossAmount,
        terms.fee_bps,
        amounts.feeAmount,
        amounts.vatAmount,
        amounts.netAmount,
        sales,
        payout.date,
        payout.rule,
        payment.completedAt,
      ],
    );
  }
}
