import type { Sql } from '@payhook/persistence';
import { DepositCodeWrites } from './deposit-code-writes';
import { EventWriter } from './event-writer';
import { IdempotencyClaims } from './idempotency-claims';
import { OutboxWriter } from './outbox-writer';
import { PaymentWrites } from './payment-writes';
import { RefundWrites } from './refund-writes';
import { SettlementWriter } from './settlement-writer';
import { VoucherWrites } from './voucher-writes';

/**
 * One write transaction of the ledger (Ledger.write). The writers share its connection, so a money
 * move, its event, the event's outbox row and its settlement record commit together or not at all.
 */
export class LedgerTx {
  readonly outbox: OutboxWriter;
  readonly events: EventWriter;
  readonly settlements: SettlementWriter;
  readonly payments: PaymentWrites;
  readonly refunds: RefundWrites;
  readonly vouchers: VoucherWrites;
  readonly depositCodes: DepositCodeWrites;
  readonly idempotency: IdempotencyClaims;

  /**
   * `sql`: the transaction's own statements, for the rows a feature writes with a money move (a
   * deposit, a review case, PIN failures) and its advisory locks. Money and state rows (payments,
   * refunds, events, outbox, settlements, voucher holds) go through the writers above: lint rejects
   * a write of those tables outside src/core/ledger/ (ADR 0014).
   */
  constructor(readonly sql: Sql) {
    this.outbox = new OutboxWriter(sql);
    this.events = new EventWriter(sql, this.outbox);
    this.settlements = new SettlementWriter(sql);
    this.payments = new PaymentWrites(sql, this.events, this.settlements);
    this.refunds = new RefundWrites(sql, this.events, this.settlements, this.outbox);
    this.vouchers = new VoucherWrites(sql);
    this.depositCodes = new DepositCodeWrites(sql);
    this.idempotency = new IdempotencyClaims(sql);
  }
}
