import { Injectable } from '@nestjs/common';
import type { Link } from '@opentelemetry/api';
import { detached, inSpan, linkToCurrentSpan } from '@payhook/observability';
import { MicroBatcher, isRowError } from '@payhook/persistence';
import { Ledger, type NewPayment } from '../../core/ledger';

/** Statements of batched creates running at once; the rest of the pool stays free for everything else. */
export const BATCHES_IN_FLIGHT = 4;
const MAX_BATCH = 100;

interface WaitingCreate {
  payment: NewPayment;
  /** The create's span, linked from the statement's span that serves it (none when tracing is off). */
  link?: Link;
}

/** What one create's share of a statement came to: inserted, key taken, or the error it ran into. */
type Outcome = { inserted: boolean } | { error: unknown };

/**
 * Creates that arrive together share one statement (ADR 0013): while fewer than BATCHES_IN_FLIGHT
 * statements run, the creates of one turn of the event loop go at the end of it; when all are busy,
 * creates gather and go together as soon as one comes back. A round trip and a commit then serve many payments.
 *
 * No statement holds two creates with the same idempotency key or the same order: Postgres refuses
 * a statement that claims one key twice, and the one-active-payment-per-order index would fail the
 * whole statement. A statement that fails on a row of its own (a unique violation, a deadlock) is
 * split in halves until the failing create stands alone, so one create's error is never another's.
 */
@Injectable()
export class PaymentInsertBatcher {
  private readonly batcher = new MicroBatcher((creates: WaitingCreate[]) => this.run(creates), {
    maxBatch: MAX_BATCH,
    inFlight: BATCHES_IN_FLIGHT,
    // Requests read from many sockets in one turn go together: fewer, fuller statements.
    gatherTurn: true,
    keysOf: ({ payment: { payment, idempotencyKey } }) => {
      const scope = `${payment.merchantId}\u0000${String(payment.livemode)}`;
      return [`key\u0000${scope}\u0000${idempotencyKey}`, `order\u0000${scope}\u0000${payment.orderId}`];
    },
  });

  constructor(private readonly ledger: Ledger) {}

  /** Requests waiting for a batch slot: all of them while every slot is busy. */
  get queued(): number {
    return this.batcher.queued;
  }

  /** True when the payment was inserted; false when its idempotency key was taken and not expired. */
  async insert(payment: NewPayment): Promise<boolean> {
    const outcome = await this.batcher.submit({ payment, link: linkToCurrentSpan() });
    if ('error' in outcome) throw outcome.error;
    return outcome.inserted;
  }

  /** The statement serves every create in it, so it belongs to none of their traces or log contexts. */
  private run(creates: WaitingCreate[]): Promise<Outcome[]> {
    const links = creates.flatMap((create) => create.link ?? []);
    return detached(() =>
      inSpan('payment insert batch', { attributes: { 'payhook.batch_size': creates.length }, links }, () =>
        this.insertAll(creates.map((create) => create.payment)),
      ),
    );
  }

  private async insertAll(payments: NewPayment[]): Promise<Outcome[]> {
    try {
      const inserted = await this.ledger.createPayments(payments);
      return payments.map((payment) => ({ inserted: inserted.has(payment.payment.id) }));
    } catch (error) {
      if (payments.length === 1 || !isRowError(error)) return payments.map(() => ({ error }));
      // Halves, one after the other: a bad row among a hundred is found in a few statements, and
      // the split holds only this batch's connection.
      const half = Math.ceil(payments.length / 2);
      return [...(await this.insertAll(payments.slice(0, half))), ...(await this.insertAll(payments.slice(half)))];
    }
  }
}
