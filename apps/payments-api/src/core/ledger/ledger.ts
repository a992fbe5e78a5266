import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { inTransaction, sqlRows, together, type Sql } from '@payhook/persistence';
import { DataSource } from 'typeorm';
import { amountDue, heldVoucherValue } from './amount-due';
import { LedgerTx } from './ledger-tx';
import { createPayments, type NewPayment } from './payment-creation';
import type { PaymentRecord } from './payment-record';

/**
 * A ledger transaction's plan settings, for the transaction only. Its named statements all find their
 * rows by a key, batch after batch: each is planned once per connection (a generic plan), not again for
 * each call, which Postgres otherwise did for most (planning the event record cost 0.4 ms, running it 0.5),
 * and with sequential scans off, so that a plan made while a table was small (a new deployment) probes
 * the key instead of scanning the table whole for every call after as it grows (docs/performance.md).
 * And without JIT: a plan that can only scan (a table with no index for it) is costed past
 * jit_above_cost with scans off, and would be compiled on every call.
 */
const KEYED_PLANS = `SELECT set_config('plan_cache_mode', 'force_generic_plan', true),
                            set_config('enable_seqscan', 'off', true), set_config('jit', 'off', true)`;

/**
 * The only way into a write transaction that moves money or state (ADR 0014): payments, events,
 * the outbox and settlements are written through the LedgerTx it hands to `work`.
 */
@Injectable()
export class Ledger {
  private readonly primary: Sql;

  constructor(@InjectDataSource() private readonly db: DataSource) {
    this.primary = (text, params, name) => sqlRows(this.db, text, params, name);
  }

  /** Runs `work` in one transaction: committed if it resolves, else rolled back. */
  write<R>(work: (tx: LedgerTx) => Promise<R>): Promise<R> {
    return inTransaction(this.db, async (sql) => {
      // Sent with BEGIN and the work's first statement: no round trip of its own.
      const [, result] = await together([sql(KEYED_PLANS), work(new LedgerTx(sql))]);
      return result;
    });
  }

  /**
   * Creates payments with their idempotency keys in one statement, atomic by itself (ADR 0013): the
   * ids of those inserted; one left out found its key taken.
   */
  createPayments(inputs: readonly NewPayment[]): Promise<Set<string>> {
    return createPayments(this.primary, inputs);
  }

  /** Value of the vouchers held for (or redeemed by) a payment, read on the primary. */
  heldVoucherValue(paymentId: string): Promise<number> {
    return heldVoucherValue(this.primary, paymentId);
  }

  /** What is still due on a payment (its amount less the vouchers it holds), read on the primary. */
  amountDue(payment: PaymentRecord): Promise<number> {
    return amountDue(this.primary, payment);
  }
}
