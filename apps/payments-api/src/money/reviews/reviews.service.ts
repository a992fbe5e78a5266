import { Injectable } from '@nestjs/common';
import { PayhookError, type ListEnvelope } from '@payhook/contracts';
import { decodeCursor, encodeCursor } from '../../platform/http/keyset-cursor';
import { Ledger, effectiveStatus, type LedgerTx } from '../../core/ledger';
import { PaymentTransitionsService } from '../payments';
import type { ListReviewsQueryDto, ResolveReviewRequestDto } from './dto/resolve-review.request.dto';
import type { ReviewCaseView } from './review-case.view';
import { ReviewCasesRepository } from './review-cases.repository';

const DEFAULT_PAGE_SIZE = 20;

/** The operator's queue of money that could not be matched on its own, and its resolutions. */
@Injectable()
export class ReviewsService {
  constructor(
    private readonly reviews: ReviewCasesRepository,
    private readonly ledger: Ledger,
    private readonly transitions: PaymentTransitionsService,
  ) {}

  async list(query: ListReviewsQueryDto): Promise<ListEnvelope<ReviewCaseView>> {
    const limit = query.limit ? Number(query.limit) : DEFAULT_PAGE_SIZE;
    let after;
    if (query.cursor !== undefined) {
      after = decodeCursor(query.cursor, 'reviewCase');
      const named = after && (await this.reviews.find(after.id));
      if (!after || named?.createdAt !== after.createdAt.toISOString()) {
        throw new PayhookError('parameter_invalid', 'cursor is not a cursor this API returned.', 'cursor');
      }
    }
    const rows = await this.reviews.list({ status: query.status, after, limit: limit + 1 });
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    const hasMore = rows.length > limit;
    return {
      data: page,
      hasMore,
      nextCursor: hasMore && last ? encodeCursor({ createdAt: new Date(last.createdAt), id: last.id }) : null,
    };
  }

  async get(id: string): Promise<ReviewCaseView> {
    const review = await this.reviews.find(id);
    if (!review) throw new PayhookError('resource_not_found', `No such review case: ${id}.`, 'id');
    return review;
  }

  /**
   * complete: the payment completes (pending or expired alike) and sends its normal payment.completed event.
   * reject: the case closes and nothing else changes. refund: the case's amount is recorded as owed back to the
   * payer; no money moves here. Each is kept with who and when, once.
   */
  async resolve(id: string, request: ResolveReviewRequestDto): Promise<ReviewCaseView> {
    await this.ledger.write(async (tx) => {
      const review = await ReviewCasesRepository.lock(tx.sql, id);
      if (!review) throw new PayhookError('resource_not_found', `No such review case: ${id}.`, 'id');
      if (review.status !== 'open') {
        throw new PayhookError(
          'review_state_conflict',
          `Review case ${id} was already resolved (${review.resolution?.action}) by ${review.resolution?.resolvedBy}.`,
        );
      }
      if (request.paymentId && review.paymentId && request.paymentId !== review.paymentId) {
        throw new PayhookError(
          'parameter_invalid',
          `This case belongs to payment ${review.paymentId}; leave paymentId out.`,
          'paymentId',
        );
      }
      const paymentId = review.paymentId ?? request.paymentId ?? null;
      let refundAmount = request.action === 'refund' ? review.amount : null;
      if (request.action === 'complete') {
        const due = await this.completePayment(tx, review, paymentId);
        // A deposit above what was due (the amount less the vouchers it held) leaves the excess owed back.
        if (review.source === 'deposit' && review.amount > due) refundAmount = review.amount - due;
      }
      await tx.reviewCases.resolve(id, {
        action: request.action,
        resolvedBy: request.resolvedBy,
        note: request.note ?? null,
        refundAmount,
        paymentId: request.action === 'complete' ? paymentId : null,
      });
    });
    return this.get(id);
  }

  /** Completes the case's payment; returns what was still due on it (its amount less the vouchers it held). */
  private async completePayment(tx: LedgerTx, review: ReviewCaseView, paymentId: string | null): Promise<number> {
    if (!paymentId) {
      throw new PayhookError(
        'parameter_missing',
        'This case has no payment: name the one the money belongs to in paymentId.',
        'paymentId',
      );
    }
    const payment = await tx.payments.lockForUpdate(paymentId);
    // The money of one mode (and, when known, one merchant) can only pay a payment of the same.
    if (
      !payment ||
      payment.livemode !== review.livemode ||
      (review.merchantId !== null && payment.merchantId !== review.merchantId)
    ) {
      throw new PayhookError('resource_not_found', `No such payment for this case: ${paymentId}.`, 'paymentId');
    }
    // Read before completing: the completion redeems the held vouchers.
    const due = await tx.payments.amountDue(payment);
    const completed = await this.transitions.completeAfterReview(tx, paymentId);
    if (!completed) {
      throw new PayhookError(
        'payment_state_conflict',
        `Payment ${paymentId} is ${effectiveStatus(payment)}; only a pending or expired payment can complete. ` +
          'Refund or reject the case instead.',
      );
    }
    await tx.deposits.attachToPayment(review.id, paymentId);
    return due;
  }
}
