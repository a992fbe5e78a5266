import { Injectable } from '@nestjs/common';
import { PayhookError, newId } from '@payhook/contracts';
import { isUniqueViolation } from '@payhook/persistence';
import { Ledger, type DepositFeed } from '../../core/ledger';
import { newDepositCode, normalizeDepositCode } from './deposit-code';
import { matchDeposit } from './deposit-matching';
import type { DepositView } from './deposit.view';
import { DepositCodesRepository } from './deposit-codes.repository';
import { DepositsRepository } from './deposits.repository';

export interface DepositNotification {
  bankTransactionId: string;
  amount: number;
  depositCode?: string;
  depositorName: string;
  /** Omitted by test helpers: the time it is recorded, and a replay is not compared on it. */
  receivedAt?: Date;
}

export interface RecordedDeposit {
  deposit: DepositView;
  /** The bank transaction id was already known: nothing new was recorded. */
  replayed: boolean;
}

export const BANK_FEED: DepositFeed = { name: 'bank', livemode: true, merchantId: null };

export function testFeed(merchantId: string): DepositFeed {
  return { name: `test:${merchantId}`, livemode: false, merchantId };
}

/**
 * Records a deposit and matches it in one transaction: it completes its payment (the same transition, event,
 * outbox row and settlement as any completion) or opens a review case. Idempotent by bank transaction id.
 */
@Injectable()
export class DepositsService {
  constructor(
    private readonly deposits: DepositsRepository,
    private readonly depositCodes: DepositCodesRepository,
    private readonly ledger: Ledger,
  ) {}

  async record(feed: DepositFeed, notification: DepositNotification): Promise<RecordedDeposit> {
    const id = newId('deposit');
    const depositCode = notification.depositCode?.trim() || null;
    const recorded = await this.ledger.write(async (tx) => {
      const claimed = await tx.deposits.claim(feed, { ...notification, id, depositCode });
      if (!claimed) return false;

      const code = depositCode === null ? null : normalizeDepositCode(depositCode);
      const paymentId = code === null ? null : await tx.deposits.paymentIdForCode(feed, code);
      // The row lock orders this deposit against voucher redemptions, the screen and the sweeper.
      const payment = paymentId === null ? null : await tx.payments.lockForUpdate(paymentId);
      const candidate = payment && {
        status: payment.status,
        overdue: payment.overdue,
        outstanding: await tx.payments.amountDue(payment),
      };
      const decision = matchDeposit(notification.amount, depositCode !== null, candidate);
      if (decision.kind === 'complete') {
        // Under the row lock a pending, unexpired payment cannot refuse; the check is only a seatbelt.
        if (!payment || !(await tx.payments.move(null, payment.id, 'completed'))) {
          throw new Error(`payment ${paymentId} refused a matched deposit under its row lock`);
        }
        await tx.deposits.settle(id, { kind: 'matched', paymentId: payment.id, reviewCaseId: null });
        return true;
      }
      const reviewCaseId = await tx.reviewCases.open({
        livemode: feed.livemode,
        source: 'deposit',
        reason: decision.reason,
        amount: notification.amount,
        merchantId: payment?.merchantId ?? feed.merchantId,
        paymentId: payment?.id ?? null,
      });
      await tx.deposits.settle(id, { kind: 'review', paymentId: payment?.id ?? null, reviewCaseId });
      return true;
    });

    if (recorded) return { deposit: (await this.deposits.find(id))!, replayed: false };
    const original = await this.deposits.findByBankTransaction(feed, notification.bankTransactionId);
    if (!original) throw new Error(`deposit ${notification.bankTransactionId} vanished after a conflict`);
    if (!sameNotification(original, notification, depositCode)) {
      throw new PayhookError(
        'idempotency_key_reused',
        `Bank transaction ${notification.bankTransactionId} was already recorded with different details.`,
        'bankTransactionId',
      );
    }
    return { deposit: original, replayed: true };
  }

  /**
   * Gives the payment its deposit code if it has none yet (the screen shows it on first view). Codes are
   * random; the unique index settles the rare collision, after which another is drawn.
   */
  async depositCodeFor(paymentId: string): Promise<string | null> {
    for (let attempt = 0; attempt < 5; attempt++) {
      try {
        return await this.depositCodes.give(paymentId, newDepositCode());
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
      }
    }
    throw new Error('could not draw an unused deposit code in 5 tries');
  }
}

function sameNotification(original: DepositView, notification: DepositNotification, depositCode: string | null) {
  return (
    original.amount === notification.amount &&
    original.depositCode === depositCode &&
    original.depositorName === notification.depositorName &&
    (notification.receivedAt === undefined || original.receivedAt === notification.receivedAt.toISOString())
  );
}
