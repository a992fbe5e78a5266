import { Injectable, Logger } from '@nestjs/common';
import { SealedSecretError } from '@payhook/config';
import type { CashReceiptView, ListEnvelope } from '@payhook/contracts';
import { Ledger, toCashReceiptView, type CashReceiptRecord } from '../../core/ledger';
import { CashReceiptIdentities } from './cash-receipt-identities';
import { CashReceiptException } from './cash-receipt.exception';
import { CashReceiptsRepository } from './cash-receipts.repository';
import { CashReceiptsService, page } from './cash-receipts.service';
import type { ListAdminCashReceiptsQueryDto } from './dto/admin-cash-receipts.dto';

const DEFAULT_PAGE_SIZE = 20;

/** A receipt as the operator's queue shows it: the buyer's number whole, to report to the tax office. */
export type AdminCashReceiptView = CashReceiptView & { merchantId: string };

/**
 * The operator's side of live receipts: the queue, and the tax office's answer fed back (issued
 * with its number, or failed with the reason), each once.
 */
@Injectable()
export class CashReceiptOperationsService {
  private readonly logger = new Logger(CashReceiptOperationsService.name);

  constructor(
    private readonly ledger: Ledger,
    private readonly receipts: CashReceiptsRepository,
    private readonly identities: CashReceiptIdentities,
    private readonly cashReceipts: CashReceiptsService,
  ) {}

  async queue(query: ListAdminCashReceiptsQueryDto): Promise<ListEnvelope<AdminCashReceiptView>> {
    const limit = query.limit ? Number(query.limit) : DEFAULT_PAGE_SIZE;
    const after = await this.cashReceipts.checkedCursor(null, query.cursor);
    const rows = await this.receipts.queue(query.status ?? 'pending', after, limit);
    return page(rows, limit, (receipt) => this.adminView(receipt));
  }

  async issue(id: string, issueNumber: string): Promise<CashReceiptView> {
    const moved = await this.ledger.write((tx) => tx.cashReceipts.decide(id, { status: 'issued', issueNumber }));
    return toCashReceiptView(moved ?? (await this.conflict(id)));
  }

  async fail(id: string, reason: string): Promise<CashReceiptView> {
    const moved = await this.ledger.write((tx) => tx.cashReceipts.decide(id, { status: 'failed', reason }));
    return toCashReceiptView(moved ?? (await this.conflict(id)));
  }

  private adminView(receipt: CashReceiptRecord): AdminCashReceiptView {
    return {
      ...toCashReceiptView(receipt),
      merchantId: receipt.merchantId,
      identityNumber: this.openIdentity(receipt),
    };
  }

  /** A number that does not open (a key gone, a copied value) shows masked, and the log says which, never what. */
  private openIdentity(receipt: CashReceiptRecord): string {
    try {
      return this.identities.open(receipt.paymentId, receipt.identityNumberSealed);
    } catch (error) {
      if (!(error instanceof SealedSecretError)) throw error;
      this.logger.error(`the buyer's number of cash receipt ${receipt.id} does not open: ${error.message}`);
      return receipt.identityNumberMasked;
    }
  }

  /** Nothing moved: no such receipt (404), answered already, or a cancel receipt whose issue receipt is not issued (409). */
  private async conflict(id: string): Promise<never> {
    const receipt = await this.receipts.findAnyById(id);
    if (!receipt) throw new CashReceiptException('resource_not_found', `No such cash receipt: ${id}.`, 'id');
    throw new CashReceiptException(
      'cash_receipt_state_conflict',
      receipt.status === 'pending'
        ? `Cash receipt ${id} cancels part of an issue receipt that is not issued yet: report that one first.`
        : `Cash receipt ${id} is ${receipt.status}: only a pending receipt is issued or failed, once.`,
    );
  }
}
