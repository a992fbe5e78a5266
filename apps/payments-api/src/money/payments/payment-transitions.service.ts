import { Inject, Injectable } from '@nestjs/common';
import type { MerchantScope } from '@payhook/auth';
import type { PaymentView } from '@payhook/contracts';
import { isUniqueViolation } from '@payhook/persistence';
import { inSpan } from '@payhook/observability';
import { AuditLog, type AuditActor } from '../../core/audit';
import { PaymentsApiEnv } from '../../platform/config/payments-api.env';
import { Ledger, effectiveStatus, type LedgerTx, type PaymentOutcome, type PaymentRecord } from '../../core/ledger';
import { PaymentException } from './payment.exception';
import { toPaymentView } from './payment.view';
import { PaymentsRepository } from './payments.repository';

export type FinalStatus = PaymentOutcome;

/**
 * The payments feature's side of every move out of `pending`: the ledger makes the move with its
 * event, outbox row and (for a completion) settlement record; this answers the caller with the
 * payment's view or the error that says why it could not move.
 */
@Injectable()
export class PaymentTransitionsService {
  constructor(
    private readonly audit: AuditLog,
    private readonly ledger: Ledger,
    private readonly payments: PaymentsRepository,
    @Inject(PaymentsApiEnv) private readonly env: PaymentsApiEnv,
  ) {}

  /**
   * `scope` null: the operator (confirm-receipt), who may act on any merchant's payment.
   * `again: 'answer'`: a payment already in `to` is answered as it is (a merchant's cancel, repeated).
   */
  async transition(
    scope: MerchantScope | null,
    id: string,
    to: FinalStatus,
    again: 'conflict' | 'answer' = 'conflict',
    /** The merchant who asked (a cancel), recorded in the audit log with the move; none for the operator's moves. */
    by?: AuditActor,
  ): Promise<PaymentView> {
    // The move, its event and its audit entry commit together; the event's delivery continues this span's trace.
    const moved = await inSpan(`payment ${to}`, { attributes: { 'payhook.payment_id': id } }, () =>
      this.ledger.write(async (tx) => {
        const record = await tx.payments.move(scope, id, to);
        if (record && by && to === 'canceled') {
          await this.audit.record(tx.sql, {
            ...by,
            merchantId: record.merchantId,
            action: 'payment.canceled',
            target: id,
          });
        }
        return record;
      }),
    );
    if (moved) return toPaymentView(moved, this.env.PAY_URL);

    const current = scope ? await this.payments.findById(scope, id) : await this.payments.findAnyById(id);
    if (!current) throw new PaymentException('resource_not_found', `No such payment: ${id}.`, 'id');
    if (again === 'answer' && current.status === to) return toPaymentView(current, this.env.PAY_URL);
    throw new PaymentException(
      'payment_state_conflict',
      `Payment ${id} is ${effectiveStatus(current)}; only a pending payment can become ${to}.`,
    );
  }

  /** The sweeper's batch: overdue pending payments become expired, each with its payment.expired event. */
  async expireOverdue(batchSize: number): Promise<number> {
    const expired = await this.ledger.write((tx) => tx.payments.expireOverdue(batchSize));
    return expired.length;
  }

  /** An overdue pending payment that holds an order becomes expired (with its event), freeing the order. */
  async expireIfOverdue(id: string): Promise<boolean> {
    return (await this.ledger.write((tx) => tx.payments.expireIfOverdue(id))) !== null;
  }

  /**
   * An operator's completion through the review queue, in the review's transaction: money arrived for a
   * payment that is pending or has expired meanwhile. Null when the payment is in another state.
   */
  async completeAfterReview(tx: LedgerTx, id: string): Promise<PaymentRecord | null> {
    return tx.payments.completeAfterReview(id).catch((error: unknown) => {
      if (!isUniqueViolation(error)) throw error;
      throw new PaymentException(
        'order_already_active',
        `Payment ${id} cannot complete: its order already has another pending or completed payment.`,
      );
    });
  }
}
