import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { MerchantScope } from '@payhook/auth';
import type { RefundStatus } from '@payhook/contracts';
import { ReadDatabase, sqlRows } from '@payhook/persistence';
import { DataSource } from 'typeorm';
import type { KeysetCursor } from '../../platform/http/keyset-cursor';
import { REFUND_COLUMNS, toRefundRecord, type RefundRecord, type RefundRow } from '../../core/ledger';

/** A payment's amount and tax-free part, and what its succeeded and pending refunds hold of each. */
export interface HeldOfPayment {
  amount: number;
  refundHeldAmount: number;
  taxFreeAmount: number;
  refundHeldTaxFreeAmount: number;
}

export interface RefundFilter {
  paymentId?: string;
  status?: RefundStatus;
  after?: KeysetCursor;
  limit: number;
}

/** Reads of refunds; every write goes through the ledger (ledger/refund-writes.ts). */
@Injectable()
export class RefundsRepository {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly read: ReadDatabase,
  ) {}

  async findById(scope: MerchantScope, id: string): Promise<RefundRecord | null> {
    const rows = await sqlRows<RefundRow>(
      this.db,
      `SELECT ${REFUND_COLUMNS} FROM refunds WHERE id = $1 AND merchant_id = $2 AND livemode = $3`,
      [id, scope.merchantId, scope.livemode],
    );
    return rows[0] ? toRefundRecord(rows[0]) : null;
  }

  /** For the operator: a refund by id, whoever it belongs to. */
  async findAnyById(id: string): Promise<RefundRecord | null> {
    const rows = await sqlRows<RefundRow>(this.db, `SELECT ${REFUND_COLUMNS} FROM refunds WHERE id = $1`, [id]);
    return rows[0] ? toRefundRecord(rows[0]) : null;
  }

  /** For the operator: the refund a bank transfer was recorded for (refunds_bank_transaction_id_key). */
  async findByBankTransactionId(bankTransactionId: string): Promise<RefundRecord | null> {
    const rows = await sqlRows<RefundRow>(
      this.db,
      `SELECT ${REFUND_COLUMNS} FROM refunds WHERE bank_transaction_id = $1`,
      [bankTransactionId],
    );
    return rows[0] ? toRefundRecord(rows[0]) : null;
  }

  /** On the primary, as the payments list's check: a cursor from a replica's page is never taken for a forged one. */
  async existsAt(scope: MerchantScope | null, position: KeysetCursor): Promise<boolean> {
    const scoped = scope ? 'AND merchant_id = $3 AND livemode = $4' : '';
    const rows = await sqlRows(this.db, `SELECT 1 FROM refunds WHERE id = $1 AND created_at = $2 ${scoped}`, [
      position.id,
      position.createdAt,
      ...(scope ? [scope.merchantId, scope.livemode] : []),
    ]);
    return rows.length === 1;
  }

  /**
   * Newest first, keyset-paged on (created_at, id), one extra row to tell hasMore: a range of
   * refunds_payment_status_idx with a paymentId and a status, of refunds_payment_idx with a paymentId
   * alone, of refunds_status_list_idx with a status alone, else of refunds_list_idx. On the read
   * database, like the payments list.
   */
  async list(scope: MerchantScope, filter: RefundFilter): Promise<RefundRecord[]> {
    const params: unknown[] = [scope.merchantId, scope.livemode];
    const where = ['merchant_id = $1', 'livemode = $2'];
    const bind = (value: unknown) => `$${params.push(value)}`;
    if (filter.paymentId !== undefined) where.push(`payment_id = ${bind(filter.paymentId)}`);
    if (filter.status !== undefined) where.push(`status = ${bind(filter.status)}`);
    if (filter.after) where.push(`(created_at, id) < (${bind(filter.after.createdAt)}, ${bind(filter.after.id)})`);
    const rows = await this.read.rows<RefundRow>(
      `SELECT ${REFUND_COLUMNS} FROM refunds WHERE ${where.join(' AND ')}
       ORDER BY created_at DESC, id DESC LIMIT ${bind(filter.limit + 1)}`,
      params,
    );
    return rows.map(toRefundRecord);
  }

  /**
   * A payment's newest refunds, on the primary: the console reads them right after it made one,
   * where a replica could still lack it (refunds_payment_idx).
   */
  async ofPayment(scope: MerchantScope, paymentId: string, limit: number): Promise<RefundRecord[]> {
    const rows = await sqlRows<RefundRow>(
      this.db,
      `SELECT ${REFUND_COLUMNS} FROM refunds WHERE merchant_id = $1 AND livemode = $2 AND payment_id = $3
       ORDER BY created_at DESC, id DESC LIMIT $4`,
      [scope.merchantId, scope.livemode, paymentId, limit],
    );
    return rows.map(toRefundRecord);
  }

  /**
   * A payment's amount and tax-free part, and what its succeeded and pending refunds hold of each, on
   * the primary.
   */
  async heldOf(scope: MerchantScope, paymentId: string): Promise<HeldOfPayment | null> {
    const rows = await sqlRows<{
      amount: string;
      refund_held_amount: string;
      tax_free_amount: string;
      refund_held_tax_free_amount: string;
    }>(
      this.db,
      `SELECT amount, refund_held_amount, tax_free_amount, refund_held_tax_free_amount
       FROM payments WHERE id = $1 AND merchant_id = $2 AND livemode = $3`,
      [paymentId, scope.merchantId, scope.livemode],
    );
    const [row] = rows;
    return row
      ? {
          amount: Number(row.amount),
          refundHeldAmount: Number(row.refund_held_amount),
          taxFreeAmount: Number(row.tax_free_amount),
          refundHeldTaxFreeAmount: Number(row.refund_held_tax_free_amount),
        }
      : null;
  }

  /** The operator's queue of one status, oldest first (refunds_queue_idx), one extra row to tell hasMore. */
  async queue(status: RefundStatus, after: KeysetCursor | undefined, limit: number): Promise<RefundRecord[]> {
    const rows = await sqlRows<RefundRow>(
      this.db,
      `SELECT ${REFUND_COLUMNS} FROM refunds
       WHERE status = $1 ${after ? 'AND (created_at, id) > ($3, $4)' : ''}
       ORDER BY created_at, id LIMIT $2`,
      [status, limit + 1, ...(after ? [after.createdAt, after.id] : [])],
    );
    return rows.map(toRefundRecord);
  }
}
