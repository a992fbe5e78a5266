import { Injectable } from '@nestjs/common';
import type { Link } from '@opentelemetry/api';
import { detached, inSpan, linkToCurrentSpan } from '@payhook/observability';
import { PaymentsRepository, type NewPayment } from './payments.repository';

/** Statements of batched creates running at once; the rest of the pool stays free for everything else. */
export const BATCHES_IN_FLIGHT = 4;
const MAX_BATCH = 100;

interface WaitingCreate {
  payment: NewPayment;
  /** The create's span, linked from the statement's span that serves it (none when tracing is off). */
  link?: Link;
  resolve: (inserted: boolean) => void;
  reject: (error: unknown) => void;
}

/**
 * Turns the creates that arrive together into one statement (ADR 0013). A create never waits for
 * company: while fewer than BATCHES_IN_FLIGHT statements run, a batch leaves on the next turn of
 * the event loop, alone if it must; only when all are busy do new creates gather, and they leave
 * together as soon as one comes back. A round trip and a commit then serve many payments.
 *
 * Each create is answered as soon as its own statement is back. A statement that fails on a row of
 * its own (a unique violation, a deadlock) is split in halves until the failing create stands
 * alone, so one create's error is never another's.
 */
@Injectable()
export class PaymentInsertBatcher {
  private readonly queue: WaitingCreate[] = [];
  private inFlight = 0;
  private flushScheduled = false;

  constructor(private readonly payments: PaymentsRepository) {}

  /** True when the payment was inserted; false when its idempotency key was taken and not expired. */
  insert(payment: NewPayment): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.queue.push({ payment, link: linkToCurrentSpan(), resolve, reject });
      this.scheduleFlush();
    });
  }

  /** On the next turn, so that creates read from the sockets in the same turn leave together. */
  private scheduleFlush(): void {
    if (this.flushScheduled || this.inFlight >= BATCHES_IN_FLIGHT || this.queue.length === 0) return;
    this.flushScheduled = true;
    setImmediate(() => {
      this.flushScheduled = false;
      while (this.inFlight < BATCHES_IN_FLIGHT && this.queue.length > 0) {
        const batch = takeConflictFree(this.queue, MAX_BATCH);
        this.inFlight += 1;
        void this.run(batch)
          // insertBatch answers every create itself; this is for a failure around it (the span).
          .catch((error: unknown) => batch.forEach((create) => create.reject(error)))
          .finally(() => {
            this.inFlight -= 1;
            this.scheduleFlush();
          });
      }
    });
  }

  /** The statement serves every create in it, so it belongs to none of their traces or log contexts. */
  private run(batch: WaitingCreate[]): Promise<void> {
    const links = batch.flatMap((create) => create.link ?? []);
    return detached(() =>
      inSpan('payment insert batch', { attributes: { 'payhook.batch_size': batch.length }, links }, () =>
        this.insertBatch(batch),
      ),
    );
  }

  private async insertBatch(batch: WaitingCreate[]): Promise<void> {
    try {
      const inserted = await this.payments.insertWithIdempotencyKeys(batch.map((create) => create.payment));
      for (const create of batch) create.resolve(inserted.has(create.payment.payment.id));
    } catch (error) {
      if (batch.length > 1 && isRowError(error)) {
        // Halves, one after the other: a bad row among a hundred is found in a few statements,
        // and the split holds only this batch's connection.
        const half = Math.ceil(batch.length / 2);
        await this.insertBatch(batch.slice(0, half));
        await this.insertBatch(batch.slice(half));
      } else {
        for (const create of batch) create.reject(error);
      }
    }
  }
}

/**
 * Takes up to `max` creates off the front of the queue, leaving behind any that shares an
 * idempotency key or an order with one taken or left before it: Postgres rejects a statement that
 * claims one key twice, and the one-active-payment-per-order index would fail the whole statement.
 * What is left keeps its order for the next batch.
 */
export function takeConflictFree<T extends { payment: NewPayment }>(queue: T[], max: number): T[] {
  const taken: T[] = [];
  const left: T[] = [];
  const names = new Set<string>();
  let next = 0;
  for (; next < queue.length && taken.length < max; next++) {
    const create = queue[next];
    const { payment, idempotencyKey } = create.payment;
    const scope = `${payment.merchantId}\u0000${String(payment.livemode)}`;
    const own = [`key\u0000${scope}\u0000${idempotencyKey}`, `order\u0000${scope}\u0000${payment.orderId}`];
    const conflicts = own.some((name) => names.has(name));
    for (const name of own) names.add(name);
    (conflicts ? left : taken).push(create);
  }
  queue.splice(0, next, ...left);
  return taken;
}

/** SQLSTATE classes a single row can cause: 21 (cardinality), 22 (data), 23 (integrity), 40 (deadlock, serialization). */
function isRowError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && ['21', '22', '23', '40'].includes(code.slice(0, 2));
}
