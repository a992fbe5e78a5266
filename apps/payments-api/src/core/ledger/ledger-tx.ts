import type { Sql } from '@payhook/persistence';
import { CashReceiptWrites } from './cash-receipt-writes';
import { DepositWrites } from './deposit-writes';
import { EscrowWrites } from './escrow-writes';
import { EventWriter } from './event-writer';
import { IdempotencyClaims } from './idempotency-claims';
import { OutboxWriter } from './outbox-writer';
import { PaymentWrites } from './payment-writes';
import { RefundWrites } from './refund-writes';
import { ReviewCaseWrites } from './review-case-writes';
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
  readonly deposits: DepositWrites;
  readonly reviewCases: ReviewCaseWrites;
  readonly cashReceipts: CashReceiptWrites;
  readonly escrows: EscrowWrites;
  readonly idempotency: IdempotencyClaims;

  /**
   * `sql`: the transaction's own statements, for the advisory locks and reads of the work and the
   * rows a feature keeps beside a money move (PIN failures). Every money record (payments and their
   * escrows, refunds, cash receipts, deposits, review cases, voucher holds, settlements, events, the outbox) goes through the writers
   * above: lint rejects SQL that writes one of those tables outside src/core/ledger/ (ADR 0014).
   */
  constructor(readonly sql: Sql) {
    this.outbox = new OutboxWriter(sql);
    this.events = new EventWriter(sql);
    this.settlements = new SettlementWriter(sql);
    this.vouchers = new VoucherWrites(sql);
    this.cashReceipts = new CashReceiptWrites(sql, this.events);
    this.payments = new PaymentWrites(sql, this.events, this.settlements, this.vouchers, this.cashReceipts);
    this.refunds = new RefundWrites(sql, this.events, this.settlements);
    this.deposits = new DepositWrites(sql);
    this.reviewCases = new ReviewCaseWrites(sql);
    this.escrows = new EscrowWrites(sql, this.events, this.settlements, this.reviewCases);
    this.idempotency = new IdempotencyClaims(sql);
  }
}
