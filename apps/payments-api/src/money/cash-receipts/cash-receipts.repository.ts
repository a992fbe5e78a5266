import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { MerchantScope } from '@payhook/auth';
import type { CashReceiptStatus } from '@payhook/contracts';
import { ReadDatabase, sqlRows } from '@payhook/persistence';
import { DataSource } from 'typeorm';
import type { KeysetCursor } from '../../platform/http/keyset-cursor';
import {
  CASH_RECEIPT_COLUMNS,
  toCashReceiptRecord,
  type CashReceiptRecord,
  type CashReceiptRow,
} from '../../core/ledger';

export interface CashReceiptFilter {
  paymentId?: string;
  status?: CashReceiptStatus;
  after?: KeysetCursor;
  limit: number;
}

/** Reads of cash receipts; every write goes through the ledger (ledger/cash-receipt-writes.ts). */
@Injectable()
export class CashReceiptsRepository {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly read: ReadDatabase,
  ) {}

  async findById(scope: MerchantScope, id: string): Promise<CashReceiptRecord | null> {
    const rows = await sqlRows<CashReceiptRow>(
      this.db,
      `SELECT ${CASH_RECEIPT_COLUMNS} FROM cash_receipts WHERE id = $1 AND merchant_id = $2 AND livemode = $3`,
      [id, scope.merchantId, scope.livemode],
    );
    return rows[0] ? toCashReceiptRecord(rows[0]) : null;
  }

  /** For the operator: a receipt by id, whoever it belongs to. */
  async findAnyById(id: string): Promise<CashReceiptRecord | null> {
    const rows = await sqlRows<CashReceiptRow>(
      this.db,
      `SELECT ${CASH_RECEIPT_COLUMNS} FROM cash_receipts WHERE id = $1`,
      [id],
    );
    return rows[0] ? toCashReceiptRecord(rows[0]) : null;
  }

  /** On the primary: a cursor from a replica's page is never taken for a forged one. */
  async existsAt(scope: MerchantScope | null, position: KeysetCursor): Promise<boolean> {
    const scoped = scope ? 'AND merchant_id = $3 AND livemode = $4' : '';
    const rows = await sqlRows(this.db, `SELECT 1 FROM cash_receipts WHERE id = $1 AND created_at = $2 ${scoped}`, [
      position.id,
      position.createdAt,
      ...(scope ? [scope.merchantId, scope.livemode] : []),
    ]);
    return rows.length === 1;
  }

  /**
   * Newest first, keyset-paged on (created_at, id), one extra row to tell hasMore: with a paymentId a
   * range of cash_receipts_payment_idx (a payment has a few), with a status alone of
   * cash_receipts_status_list_idx, else of cash_receipts_list_idx. On the read database.
   */
  async list(scope: MerchantScope, filter: CashReceiptFilter): Promise<CashReceiptRecord[]> {
    const params: unknown[] = [scope.merchantId, scope.livemode];
    const where = ['merchant_id = $1', 'livemode = $2'];
    const bind = (value: unknown) => `$${params.push(value)}`;
    if (filter.paymentId !== undefined) where.push(`payment_id = ${bind(filter.paymentId)}`);
    if (filter.status !== undefined) where.push(`status = ${bind(filter.status)}`);
    if (filter.after) where.push(`(created_at, id) < (${bind(filter.after.createdAt)}, ${bind(filter.after.id)})`);
    const rows = await this.read.rows<CashReceiptRow>(
      `SELECT ${CASH_RECEIPT_COLUMNS} FROM cash_receipts WHERE ${where.join(' AND ')}
       ORDER BY created_at DESC, id DESC LIMIT ${bind(filter.limit + 1)}`,
      params,
    );
    return rows.map(toCashReceiptRecord);
  }

  /** A payment's receipts, newest first, on the primary (the console reads them right after a move). */
  async ofPayment(scope: MerchantScope, paymentId: string, limit: number): Promise<CashReceiptRecord[]> {
    const rows = await sqlRows<CashReceiptRow>(
      this.db,
      `SELECT ${CASH_RECEIPT_COLUMNS} FROM cash_receipts WHERE payment_id = $3 AND merchant_id = $1 AND livemode = $2
       ORDER BY created_at DESC, id DESC LIMIT $4`,
      [scope.merchantId, scope.livemode, paymentId, limit],
    );
    return rows.map(toCashReceiptRecord);
  }

  /** The operator's queue of one status, oldest first (cash_receipts_queue_idx), one extra row to tell hasMore. */
  async queue(status: CashReceiptStatus, after: KeysetCursor | undefined, limit: number): Promise<CashReceiptRecord[]> {
    const rows = await sqlRows<CashReceiptRow>(
      this.db,
      `SELECT ${CASH_RECEIPT_COLUMNS} FROM cash_receipts
       WHERE status = $1 ${after ? 'AND (created_at, id) > ($3, $4)' : ''}
       ORDER BY created_at, id LIMIT $2`,
      [status, limit + 1, ...(after ? [after.createdAt, after.id] : [])],
    );
    return rows.map(toCashReceiptRecord);
  }
}
