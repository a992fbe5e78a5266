import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { sqlRows, type Sql } from '@payhook/persistence';
import { DataSource } from 'typeorm';
import type { DepositView } from './deposit.view';

/** Where deposits come from: the operator's bank feed (live), or one merchant's test helpers. */
export interface DepositFeed {
  name: string;
  livemode: boolean;
  /** Set for a test feed: its deposits can only pay that merchant's test payments. */
  merchantId: string | null;
}

export interface NewDeposit {
  id: string;
  bankTransactionId: string;
  amount: number;
  depositCode: string | null;
  depositorName: string;
  receivedAt?: Date;
}

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

  /**
   * Records the deposit unless its bank transaction id is already known: false then. A concurrent copy
   * waits on the unique index until the first commits, so a notification replayed at once is recorded once.
   * The outcome is provisional until `settle` in the same transaction.
   */
  static async claim(sql: Sql, feed: DepositFeed, deposit: NewDeposit): Promise<boolean> {
    const rows = await sql(
      `INSERT INTO deposits (id, feed, livemode, bank_transaction_id, amount, deposit_code, depositor_name,
         received_at, outcome)
       VALUES ($1, $2, $3, $4, $5, $6, $7, COALESCE($8, now()), 'review')
       ON CONFLICT (feed, bank_transaction_id) DO NOTHING
       RETURNING id`,
      [
        deposit.id,
        feed.name,
        feed.livemode,
        deposit.bankTransactionId,
        deposit.amount,
        deposit.depositCode,
        deposit.depositorName,
        deposit.receivedAt ?? null,
      ],
    );
    return rows.length === 1;
  }

  static async settle(
    sql: Sql,
    id: string,
    outcome: { kind: 'matched' | 'review'; paymentId: string | null; reviewCaseId: string | null },
  ): Promise<void> {
    await sql('UPDATE deposits SET outcome = $2, payment_id = $3, review_case_id = $4 WHERE id = $1', [
      id,
      outcome.kind,
      outcome.paymentId,
      outcome.reviewCaseId,
    ]);
  }

  /** The payment this (normalized) code was given to, within the feed's reach. */
  static async paymentIdForCode(sql: Sql, feed: DepositFeed, code: string): Promise<string | null> {
    const rows = await sql<{ id: string }>(
      `SELECT id FROM payments WHERE deposit_code = $1 AND livemode = $2 AND ($3::text IS NULL OR merchant_id = $3)`,
      [code, feed.livemode, feed.merchantId],
    );
    return rows[0]?.id ?? null;
  }

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
