import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { sqlRows, type Sql } from '@payhook/persistence';
import { DataSource } from 'typeorm';
import type { MerchantScope, PaymentRecord } from '../payments/payment.record';
import { addBusinessDays, salesDate, settlementAmounts } from './settlement-calculation';
import type { SettlementView } from './settlement.view';

/** Position after the last row of a page, in list order (salesDate, paymentId). */
export interface SettlementCursor {
  salesDate: string;
  paymentId: string;
}

export interface SettlementFilter {
  /** Inclusive sales dates, `YYYY-MM-DD`. */
  from?: string;
  to?: string;
  after?: SettlementCursor;
  /** The console shows the latest first; the API and the CSV read oldest first, as a ledger does. */
  newestFirst?: boolean;
  /** Omitted: every matching row (the CSV export of one day). */
  limit?: number;
}

interface SettlementRow {
  payment_id: string;
  order_id: string;
  livemode: boolean;
  gross_amount: string;
  fee_bps: number;
  fee_amount: string;
  vat_amount: string;
  net_amount: string;
  sales_date: string;
  payout_date: string;
  completed_at: Date;
}

const COLUMNS = `payment_id, order_id, livemode, gross_amount, fee_bps, fee_amount, vat_amount, net_amount,
  to_char(sales_date, 'YYYY-MM-DD') AS sales_date, to_char(payout_date, 'YYYY-MM-DD') AS payout_date, completed_at`;

const toView = (row: SettlementRow): SettlementView => ({
  paymentId: row.payment_id,
  orderId: row.order_id,
  livemode: row.livemode,
  currency: 'KRW',
  grossAmount: Number(row.gross_amount),
  feeBps: row.fee_bps,
  feeAmount: Number(row.fee_amount),
  vatAmount: Number(row.vat_amount),
  netAmount: Number(row.net_amount),
  salesDate: row.sales_date,
  payoutDate: row.payout_date,
  completedAt: row.completed_at.toISOString(),
});

@Injectable()
export class SettlementsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Writes the settlement record of a payment that just completed, inside the completing transaction,
   * with the merchant's terms as they are at that moment.
   */
  static async recordCompletion(sql: Sql, payment: PaymentRecord & { completedAt: Date }): Promise<void> {
    const [terms] = await sql<{ fee_bps: number; settlement_delay_days: number }>(
      'SELECT fee_bps, settlement_delay_days FROM merchants WHERE id = $1',
      [payment.merchantId],
    );
    const amounts = settlementAmounts(payment.amount, terms.fee_bps);
    const sales = salesDate(payment.completedAt);
    await sql(
      `INSERT INTO settlements (payment_id, merchant_id, livemode, order_id, gross_amount, fee_bps, fee_amount,
         vat_amount, net_amount, sales_date, payout_date, completed_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
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
        addBusinessDays(sales, terms.settlement_delay_days),
        payment.completedAt,
      ],
    );
  }

  async list(scope: MerchantScope, filter: SettlementFilter): Promise<SettlementView[]> {
    const params: unknown[] = [scope.merchantId, scope.livemode];
    const where = ['merchant_id = $1', 'livemode = $2'];
    if (filter.from) where.push(`sales_date >= $${params.push(filter.from)}`);
    if (filter.to) where.push(`sales_date <= $${params.push(filter.to)}`);
    const direction = filter.newestFirst ? 'DESC' : 'ASC';
    if (filter.after) {
      const [date, id] = [params.push(filter.after.salesDate), params.push(filter.after.paymentId)];
      where.push(`(sales_date, payment_id) ${filter.newestFirst ? '<' : '>'} ($${date}, $${id})`);
    }
    const limit = filter.limit === undefined ? '' : `LIMIT $${params.push(filter.limit)}`;
    const rows = await sqlRows<SettlementRow>(
      this.db,
      // Qualified: the bare name would sort by the to_char() output column of the same name,
      // which no index serves (a sort of the merchant's whole history).
      `SELECT ${COLUMNS} FROM settlements WHERE ${where.join(' AND ')}
       ORDER BY settlements.sales_date ${direction}, settlements.payment_id ${direction} ${limit}`,
      params,
    );
    return rows.map(toView);
  }

  async findForPayment(scope: MerchantScope, paymentId: string): Promise<SettlementView | null> {
    const rows = await sqlRows<SettlementRow>(
      this.db,
      `SELECT ${COLUMNS} FROM settlements WHERE merchant_id = $1 AND livemode = $2 AND payment_id = $3`,
      [scope.merchantId, scope.livemode, paymentId],
    );
    return rows[0] ? toView(rows[0]) : null;
  }
}
