import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { inTransaction, KEYED_PLANS_FOR_TRANSACTION, sqlRows, together, type Sql } from '@payhook/persistence';
import { DataSource } from 'typeorm';
import { amountDue, heldVoucherValue } from './amount-due';
import { LedgerTx } from './ledger-tx';
import { createPayments, type NewPayment } from './payment-creation';
import type { PaymentRecord } from './payment-record';

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
      // Every ledger statement finds its rows by a key or an index range (ADR 0014). Sent with BEGIN and
      // the work's first statement: no round trip of its own. Named, as it opens every ledger transaction.
      const [, result] = await together([sql(KEYED_PLANS_FOR_TRANSACTION, [], 'keyed-plans'), work(new LedgerTx(sql))]);
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
