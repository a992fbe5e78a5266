import { Injectable, Logger } from '@nestjs/common';
import { SealedSecretError } from '@payhook/config';
import type { ListEnvelope, RefundView } from '@payhook/contracts';
import { isUniqueViolation } from '@payhook/persistence';
import { decodeCursor } from '../../platform/http/keyset-cursor';
import { Ledger, type RefundRecord } from '../../core/ledger';
import type { ListAdminRefundsQueryDto } from './dto/admin-refunds.dto';
import { RefundAccounts } from './refund-accounts';
import { RefundException } from './refund.exception';
import { toAdminRefundView, toRefundView, type AdminRefundView, type RefundAccount } from './refund.view';
import { RefundsRepository } from './refunds.repository';
import { forgedCursor, page } from './refunds.service';

const DEFAULT_PAGE_SIZE = 20;
/** One bank transfer is the success of one refund at most. */
const ONE_REFUND_PER_BANK_TRANSACTION = 'refunds_bank_transaction_id_key';

/** The operator's side of live refunds: the queue, and sending the money or not. */
@Injectable()
export class RefundOperationsService {
  private readonly logger = new Logger(RefundOperationsService.name);

  constructor(
    private readonly ledger: Ledger,
    private readonly refunds: RefundsRepository,
    private readonly accounts: RefundAccounts,
  ) {}

  async queue(query: ListAdminRefundsQueryDto): Promise<ListEnvelope<AdminRefundView>> {
    const limit = query.limit ? Number(query.limit) : DEFAULT_PAGE_SIZE;
    let after;
    if (query.cursor !== undefined) {
      after = decodeCursor(query.cursor, 'refund');
      if (!after || !(await this.refunds.existsAt(null, after))) throw forgedCursor();
    }
    const rows = await this.refunds.queue(query.status ?? 'pending', after ?? undefined, limit);
    return page(rows, limit, (refund) => this.adminView(refund));
  }

  /**
   * Exactly once: a compare-and-set from pending; anything else is 409 refund_state_conflict. Answers
   * the API's Refund (the account and the bank's id stay in the queue's view). A bank transaction
   * already recorded for another refund is a 409 too: one transfer cannot pay two refunds.
   */
  async succeed(id: string, bankTransactionId: string): Promise<RefundView> {
    let moved;
    try {
      moved = await this.ledger.write(async (tx) => (await tx.refunds.succeed([{ id, bankTransactionId }]))[0] ?? null);
    } catch (error) {
      if (!isUniqueViolation(error, ONE_REFUND_PER_BANK_TRANSACTION)) throw error;
      return this.transferTaken(id, bankTransactionId);
    }
    return toRefundView(moved ?? (await this.conflict(id, 'succeed')));
  }

  async fail(id: string, reason: string): Promise<RefundView> {
    const moved = await this.ledger.write((tx) => tx.refunds.fail(id, reason));
    return toRefundView(moved ?? (await this.conflict(id, 'fail')));
  }

  private async conflict(id: string, action: string): Promise<never> {
    const refund = await this.refunds.findAnyById(id);
    if (!refund) throw new RefundException('resource_not_found', `No such refund: ${id}.`, 'id');
    throw new RefundException(
      'refund_state_conflict',
      `Refund ${id} is ${refund.status}: only a pending refund can ${action}.`,
    );
  }

  private async transferTaken(id: string, bankTransactionId: string): Promise<never> {
    const other = await this.refunds.findByBankTransactionId(bankTransactionId);
    throw new RefundException(
      'refund_state_conflict',
      `Bank transaction ${bankTransactionId} is already recorded for ${other ? `refund ${other.id}` : 'another refund'}: refund ${id} stays pending.`,
      'bankTransactionId',
    );
  }

  private adminView(refund: RefundRecord): AdminRefundView {
    return toAdminRefundView(refund, this.openAccount(refund));
  }

  /** A row that does not open (a key gone, a copied value) shows no account, and the log says which, never what. */
  private openAccount(refund: RefundRecord): RefundAccount | null {
    if (!refund.refundAccountSealed) return null;
    try {
      return this.accounts.open(refund.id, refund.refundAccountSealed);
    } catch (error) {
      if (!(error instanceof SealedSecretError)) throw error;
      this.logger.error(`the refund account of ${refund.id} does not open: ${error.message}`);
      return null;
    }
  }
}
