import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { ReadDatabase, sqlRows } from '@payhook/persistence';
import { DataSource } from 'typeorm';
import type { MerchantScope } from '@payhook/auth';
import type { PayoutRule } from '../../core/ledger';
import type { PayoutStatus, SettlementView } from './settlement.view';

/**
 * The last row of a page. Lists run in (salesDate, completedAt, paymentId, refundId or '') order, the
 * total order of settlements_day_record_order_idx; the row's own completed_at is read back by its
 * ids, so the cursor needs no timestamp of its own.
 */
export interface SettlementCursor {
  salesDate: string;
  paymentId: string;
  /** Null for a payment record. */
  refundId: string | null;
}

export interface SettlementFilter {
  /** Inclusive sales dates, `YYYY-MM-DD`. */
  from?: string;
  to?: string;
  after?: SettlementCursor;
  /** The console shows the latest first; the API and the CSV read oldest first, as a ledger does. */
  newestFirst?: boolean;
  limit: number;
}

/** Some settlement records added up. */
export interface SettlementSums {
  count: number;
  grossAmount: number;
  feeAmount: number;
  vatAmount: number;
  netAmount: number;
}

/** What one sales date adds up to, over all of its records; `held`: those of them whose payout waits for a buyer (escrow). */
export interface SettlementTotals extends SettlementSums {
  held: SettlementSums;
}

interface SettlementRow {
  type: 'payment' | 'refund';
  payment_id: string;
  refund_id: string | null;
  order_id: string;
  livemode: boolean;
  gross_amount: string;
  fee_bps: number;
  fee_amount: string;
  vat_amount: string;
  net_amount: string;
  sales_date: string;
  payout_status: PayoutStatus;
  payout_date: string | null;
  payout_rule: PayoutRule | null;
  completed_at: Date;
}

const COLUMNS = `type, payment_id, refund_id, order_id, livemode, gross_amount, fee_bps, fee_amount, vat_amount, net_amount,
  to_char(sales_date, 'YYYY-MM-DD') AS sales_date, payout_status, to_char(payout_date, 'YYYY-MM-DD') AS payout_date, payout_rule, completed_at`;

const toView = (row: SettlementRow): SettlementView => ({
  type: row.type,
  paymentId: row.payment_id,
  refundId: row.refund_id,
  orderId: row.order_id,
  livemode: row.livemode,
  currency: 'KRW',
  grossAmount: Number(row.gross_amount),
  feeBps: row.fee_bps,
  feeAmount: Number(row.fee_amount),
  vatAmount: Number(row.vat_amount),
  netAmount: Number(row.net_amount),
  salesDate: row.sales_date,
  payoutStatus: row.payout_status,
  payoutDate: row.payout_date,
  payoutRule: row.payout_rule,
  completedAt: row.completed_at.toISOString(),
});

@Injectable()
export class SettlementsRepository {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly read: ReadDatabase,
  ) {}

  /** Pages and the CSV export, on the read database: a record may show here a replica's delay late. */
  async list(scope: MerchantScope, filter: SettlementFilter): Promise<SettlementView[]> {
    const params: unknown[] = [scope.merchantId, scope.livemode];
    const where = ['merchant_id = $1', 'livemode = $2'];
    if (filter.from) where.push(`sales_date >= $${params.push(filter.from)}`);
    if (filter.to) where.push(`sales_date <= $${params.push(filter.to)}`);
    const direction = filter.newestFirst ? 'DESC' : 'ASC';
    if (filter.after) {
      const id = params.push(filter.after.paymentId);
      const refund = params.push(filter.after.refundId ?? '');
      where.push(
        `(sales_date, completed_at, payment_id, COALESCE(refund_id, '')) ${filter.newestFirst ? '<' : '>'}
         (SELECT sales_date, completed_at, payment_id, COALESCE(refund_id, '') FROM settlements
          WHERE payment_id = $${id} AND COALESCE(refund_id, '') = $${refund})`,
      );
    }
    const limit = `LIMIT $${params.push(filter.limit)}`;
    const rows = await this.read.rows<SettlementRow>(
      // A day reads in the order its payments completed and its refunds succeeded, as a bank
      // statement does; the ids break ties. settlements_day_record_order_idx serves it. Qualified:
      // the bare names would sort by the to_char() output column of the same name, which no index serves.
      `SELECT ${COLUMNS} FROM settlements WHERE ${where.join(' AND ')}
       ORDER BY settlements.sales_date ${direction}, settlements.completed_at ${direction},
         settlements.payment_id ${direction}, COALESCE(settlements.refund_id, '') ${direction} ${limit}`,
      params,
    );
    return rows.map(toView);
  }

  /**
   * The console's totals of one sales date over all of its records, refunds (negative) included,
   * added up by the database: one range of settlements_day_record_order_idx, whatever the size of
   * the day, and no rows sent to the API.
   */
  async dayTotals(scope: MerchantScope, day: string): Promise<SettlementTotals> {
    const held = `FILTER (WHERE payout_status = 'held')`;
    const [row] = await this.read.rows<Record<string, string>>(
      `SELECT count(*) AS "count", coalesce(sum(gross_amount), 0) AS "grossAmount",
         coalesce(sum(fee_amount), 0) AS "feeAmount", coalesce(sum(vat_amount), 0) AS "vatAmount",
         coalesce(sum(net_amount), 0) AS "netAmount",
         count(*) ${held} AS "heldCount", coalesce(sum(gross_amount) ${held}, 0) AS "heldGrossAmount",
         coalesce(sum(fee_amount) ${held}, 0) AS "heldFeeAmount", coalesce(sum(vat_amount) ${held}, 0) AS "heldVatAmount",
         coalesce(sum(net_amount) ${held}, 0) AS "heldNetAmount"
       FROM settlements WHERE merchant_id = $1 AND livemode = $2 AND sales_date = $3`,
      [scope.merchantId, scope.livemode, day],
    );
    return {
      count: Number(row.count),
      grossAmount: Number(row.grossAmount),
      feeAmount: Number(row.feeAmount),
      vatAmount: Number(row.vatAmount),
      netAmount: Number(row.netAmount),
      held: {
        count: Number(row.heldCount),
        grossAmount: Number(row.heldGrossAmount),
        feeAmount: Number(row.heldFeeAmount),
        vatAmount: Number(row.heldVatAmount),
        netAmount: Number(row.heldNetAmount),
      },
    };
  }

  /** On the primary: the console's payment page. The payment's own record, not its refunds'. */
  findForPayment(scope: MerchantScope, paymentId: string): Promise<SettlementView | null> {
    return this.findRecord(scope, paymentId, null);
  }

  /** On the primary (see PaymentsRepository.existsAt): one record, to check a list cursor. */
  async findRecord(scope: MerchantScope, paymentId: string, refundId: string | null): Promise<SettlementView | null> {
    const rows = await sqlRows<SettlementRow>(
      this.db,
      `SELECT ${COLUMNS} FROM settlements
       WHERE payment_id = $3 AND COALESCE(refund_id, '') = $4 AND merchant_id = $1 AND livemode = $2`,
      [scope.merchantId, scope.livemode, paymentId, refundId ?? ''],
    );
    return rows[0] ? toView(rows[0]) : null;
  }
}
