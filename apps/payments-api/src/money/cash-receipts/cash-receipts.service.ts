import { Injectable } from '@nestjs/common';
import type { MerchantScope } from '@payhook/auth';
import type { CashReceiptRequest, CashReceiptView, ListEnvelope } from '@payhook/contracts';
import { Ledger, toCashReceiptView, type CashReceiptRecord, type CashReceiptRefusal } from '../../core/ledger';
import { decodeCursor, encodeCursor, type KeysetCursor } from '../../platform/http/keyset-cursor';
import { CashReceiptIdentities } from './cash-receipt-identities';
import { CashReceiptException } from './cash-receipt.exception';
import type { ListCashReceiptsQueryDto } from './dto/list-cash-receipts.query.dto';
import { CashReceiptsRepository } from './cash-receipts.repository';

const DEFAULT_PAGE_SIZE = 20;

const REFUSALS: Record<CashReceiptRefusal, (paymentId: string) => CashReceiptException> = {
  payment_not_found: (id) => new CashReceiptException('resource_not_found', `No such payment: ${id}.`, 'id'),
  payment_not_completed: (id) =>
    new CashReceiptException(
      'payment_state_conflict',
      `Payment ${id} is not completed: a receipt asked for before completion is asked on the payment screen or at create.`,
    ),
  nothing_left: (id) =>
    new CashReceiptException(
      'payment_state_conflict',
      `Payment ${id} is fully refunded: a receipt would cover nothing.`,
    ),
  receipt_exists: (id) =>
    new CashReceiptException(
      'cash_receipt_exists',
      `Payment ${id} has a cash receipt pending or issued already; another may be asked for only after one fails.`,
    ),
};

/** Cash receipts (현금영수증): the merchant API's and the console's way in. */
@Injectable()
export class CashReceiptsService {
  constructor(
    private readonly ledger: Ledger,
    private readonly receipts: CashReceiptsRepository,
    private readonly identities: CashReceiptIdentities,
  ) {}

  /**
   * A receipt for a completed payment, made at once (issued at once in test mode). Requests at once
   * for one payment make one receipt: the others are 409 cash_receipt_exists.
   */
  async request(scope: MerchantScope, paymentId: string, request: CashReceiptRequest): Promise<CashReceiptView> {
    const ask = this.identities.ask({ id: paymentId, livemode: scope.livemode }, request);
    const made = await this.ledger.write((tx) => tx.cashReceipts.requestForCompleted(scope, paymentId, ask));
    if (typeof made === 'string') throw REFUSALS[made](paymentId);
    return toCashReceiptView(made);
  }

  /**
   * The payment screen's request before completion (the buyer's, found by the screen's link: no
   * merchant scope), kept on the payment until it completes. The number must be checked already
   * (validIdentityNumber). False when the payment is no longer pending or payable: nothing is kept.
   */
  askOnPayScreen(payment: { id: string; livemode: boolean }, request: CashReceiptRequest): Promise<boolean> {
    const ask = this.identities.ask(payment, request);
    return this.ledger.write((tx) => tx.cashReceipts.askBeforeCompletion(null, payment.id, ask));
  }

  async get(scope: MerchantScope, id: string): Promise<CashReceiptView> {
    const receipt = await this.receipts.findById(scope, id);
    if (!receipt) throw new CashReceiptException('resource_not_found', `No such cash receipt: ${id}.`, 'id');
    return toCashReceiptView(receipt);
  }

  async list(scope: MerchantScope, query: ListCashReceiptsQueryDto): Promise<ListEnvelope<CashReceiptView>> {
    const limit = query.limit ? Number(query.limit) : DEFAULT_PAGE_SIZE;
    const after = await this.checkedCursor(scope, query.cursor);
    const rows = await this.receipts.list(scope, { paymentId: query.paymentId, status: query.status, after, limit });
    return page(rows, limit, toCashReceiptView);
  }

  /** A payment's receipts for its console page, newest first, as the API shows them (the number masked). */
  async ofPayment(scope: MerchantScope, paymentId: string): Promise<CashReceiptView[]> {
    return (await this.receipts.ofPayment(scope, paymentId, 50)).map(toCashReceiptView);
  }

  /** A cursor must name a receipt of the caller (null: the operator) at that exact position. */
  async checkedCursor(scope: MerchantScope | null, cursor: string | undefined): Promise<KeysetCursor | undefined> {
    if (cursor === undefined) return undefined;
    const after = decodeCursor(cursor, 'cashReceipt');
    if (!after || !(await this.receipts.existsAt(scope, after)))
      throw new CashReceiptException('parameter_invalid', 'cursor is not a cursor this API returned.', 'cursor');
    return after;
  }
}

/** A page of the list shape, from rows read with one extra to tell hasMore. */
export function page<T>(
  rows: CashReceiptRecord[],
  limit: number,
  view: (receipt: CashReceiptRecord) => T,
): ListEnvelope<T> {
  const shown = rows.slice(0, limit);
  const last = shown.at(-1);
  const hasMore = rows.length > limit;
  return { data: shown.map(view), hasMore, nextCursor: hasMore && last ? encodeCursor(last) : null };
}
