import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { sqlRows } from '@payhook/persistence';
import type { DepositFeed } from '../../core/ledger';
import { DataSource } from 'typeorm';
import type { DepositView } from './deposit.view';

interface DepositRow {
  id: string;
  livemode: boolean;
  bank_transaction_id: string;
  amount: string;
  deposit_code: string | null;
  depositor_name: string;
  received_at: Date;
  outcome: 'matched' | 'review';
  payment_id: string | null;
  review_case_id: string | null;
  review_reason: string | null;
  created_at: Date;
}

const SELECT_DEPOSIT = `
  SELECT d.id, d.livemode, d.bank_transaction_id, d.amount, d.deposit_code, d.depositor_name, d.received_at,
         d.outcome, d.payment_id, d.review_case_id, r.reason AS review_reason, d.created_at
    FROM deposits d LEFT JOIN review_cases r ON r.id = d.review_case_id`;

const toView = (row: DepositRow): DepositView => ({
  id: row.id,
  livemode: row.livemode,
  bankTransactionId: row.bank_transaction_id,
  amount: Number(row.amount),
  depositCode: row.deposit_code,
  depositorName: row.depositor_name,
  receivedAt: row.received_at.toISOString(),
  outcome: row.outcome,
  paymentId: row.payment_id,
  reviewCaseId: row.review_case_id,
  reviewReason: row.review_reason,
  createdAt: row.created_at.toISOString(),
});

@Injectable()
export class DepositsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async find(id: string): Promise<DepositView | null> {
    const rows = await sqlRows<DepositRow>(this.db, `${SELECT_DEPOSIT} WHERE d.id = $1`, [id]);
    return rows[0] ? toView(rows[0]) : null;
  }

  async findByBankTransaction(feed: DepositFeed, bankTransactionId: string): Promise<DepositView | null> {
    const rows = await sqlRows<DepositRow>(
      this.db,
      `${SELECT_DEPOSIT} WHERE d.feed = $1 AND d.bank_transaction_id = $2`,
      [feed.name, bankTransactionId],
    );
    return rows[0] ? toView(rows[0]) : null;
  }
}
