import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { ReadDatabase, sqlRows, type Sql } from '@payhook/persistence';
import { DataSource } from 'typeorm';
import type { KeysetCursor } from '../../platform/http/keyset-cursor';
import type { ReviewAction, ReviewCaseView, ReviewSource } from './review-case.view';

export interface ReviewFilter {
  status?: 'open' | 'resolved';
  after?: KeysetCursor;
  limit: number;
}

interface ReviewRow {
  id: string;
  status: 'open' | 'resolved';
  livemode: boolean;
  source: ReviewSource;
  reason: string;
  amount: string;
  merchant_id: string | null;
  payment_id: string | null;
  created_at: Date;
  resolution: ReviewAction | null;
  resolved_by: string | null;
  resolution_note: string | null;
  refund_amount: string | null;
  resolved_at: Date | null;
  deposit_id: string | null;
  bank_transaction_id: string | null;
  deposit_amount: string | null;
  deposit_code: string | null;
  depositor_name: string | null;
  received_at: Date | null;
}

const SELECT_CASE = `
  SELECT r.id, r.status, r.livemode, r.source, r.reason, r.amount, r.merchant_id, r.payment_id, r.created_at,
         r.resolution, r.resolved_by, r.resolution_note, r.refund_amount, r.resolved_at,
         d.id AS deposit_id, d.bank_transaction_id, d.amount AS deposit_amount, d.deposit_code, d.depositor_name,
         d.received_at
    FROM review_cases r LEFT JOIN deposits d ON d.review_case_id = r.id`;

const toView = (row: ReviewRow): ReviewCaseView => ({
  id: row.id,
  status: row.status,
  livemode: row.livemode,
  source: row.source,
  reason: row.reason,
  amount: Number(row.amount),
  merchantId: row.merchant_id,
  paymentId: row.payment_id,
  deposit: row.deposit_id
    ? {
        id: row.deposit_id,
        bankTransactionId: row.bank_transaction_id!,
        amount: Number(row.deposit_amount),
        depositCode: row.deposit_code,
        depositorName: row.depositor_name!,
        receivedAt: row.received_at!.toISOString(),
      }
    : null,
  createdAt: row.created_at.toISOString(),
  resolution: row.resolution
    ? {
        action: row.resolution,
        resolvedBy: row.resolved_by!,
        note: row.resolution_note,
        refundAmount: row.refund_amount === null ? null : Number(row.refund_amount),
        resolvedAt: row.resolved_at!.toISOString(),
      }
    : null,
});

@Injectable()
export class ReviewCasesRepository {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly read: ReadDatabase,
  ) {}

  /** Newest first, both modes: the operator's queue, on the read database (it may lag a replica's delay). */
  async list(filter: ReviewFilter): Promise<ReviewCaseView[]> {
    const params: unknown[] = [];
    const where: string[] = [];
    if (filter.status) where.push(`r.status = $${params.push(filter.status)}`);
    if (filter.after) {
      where.push(`(r.created_at, r.id) < ($${params.push(filter.after.createdAt)}, $${params.push(filter.after.id)})`);
    }
    const rows = await this.read.rows<ReviewRow>(
      `${SELECT_CASE} ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
       ORDER BY r.created_at DESC, r.id DESC LIMIT $${params.push(filter.limit)}`,
      params,
    );
    return rows.map(toView);
  }

  async find(id: string): Promise<ReviewCaseView | null> {
    const rows = await sqlRows<ReviewRow>(this.db, `${SELECT_CASE} WHERE r.id = $1`, [id]);
    return rows[0] ? toView(rows[0]) : null;
  }

  /** The case, locked until the caller's transaction ends, so two operators cannot both resolve it. */
  static async lock(sql: Sql, id: string): Promise<ReviewCaseView | null> {
    const rows = await sql<ReviewRow>(`${SELECT_CASE} WHERE r.id = $1 FOR UPDATE OF r`, [id]);
    return rows[0] ? toView(rows[0]) : null;
  }
}
