import { Inject, Injectable } from '@nestjs/common';
import type { Link } from '@opentelemetry/api';
import type { MerchantScope } from '@payhook/auth';
import { detached, inSpan, linkToCurrentSpan } from '@payhook/observability';
import { MicroBatcher, isRowError, isStatementAborted } from '@payhook/persistence';
import type { AuditActor } from '../../core/audit/audit-entry';
import { PaymentsApiEnv } from '../../platform/config/payments-api.env';
import { Ledger, salesDate, type HoldRefusal, type LedgerTx, type TestRefundWrite } from '../../core/ledger';
import { succeededRefund } from './new-refund';
import { toRefundView } from './refund.view';

/** Batch statements of test refunds running at once; the rest of the pool stays free for everything else. */
export const BATCHES_IN_FLIGHT = 4;
const MAX_BATCH = 100;

/** A test refund asked for, its input already validated, with the fingerprint its Idempotency-Key stands for. */
export interface TestRefundRequest {
  scope: MerchantScope;
  paymentId: string;
  idempotencyKey: string;
  fingerprint: string;
  /** Omitted: the whole remainder, read under the payment's row lock. */
  amount?: number;
  reason?: string;
  /** Who asked, for the audit entry written with the refund. */
  actor: AuditActor;
}

/** The refund's answer (stored with its key), a refusal, or 'key_taken': an earlier request holds the key. */
export type TestRefundOutcome = { body: string } | HoldRefusal | 'key_taken';

type Outcome = TestRefundOutcome | { error: unknown };

interface WaitingRefund {
  request: TestRefundRequest;
  /** The request's span, linked from the span of the batch that serves it (none when tracing is off). */
  link?: Link;
}

/** Rolls a batch's transaction back: the refunds at these positions found their keys taken. */
class KeysTaken extends Error {
  constructor(readonly positions: ReadonlySet<number>) {
    super(`${positions.size} idempotency key(s) of the batch were taken`);
  }
}

/**
 * Test refunds that arrive together share one statement, as creates do (ADR 0013, ADR 0015): a round
 * trip and a commit serve many refunds. A batch reads its payments' orders, remainders and payout
 * terms, then writes every refund with one statement committed by itself: two round trips. The
 * guarded hold of each refund decides its amount in the database.
 *
 * No batch holds two refunds of one payment (a statement updates a row once) or two uses of one key
 * (a statement claims a key once). When the statement cannot stand alone (a key of the batch was
 * taken meanwhile, a row's error), the batch goes again the careful way: in a transaction that locks
 * its payments in id order first. There a refund whose key turns out taken rolls the batch back and
 * the others go again without it, and a statement that fails on a row of its own is split in halves
 * until the failing refund stands alone, so one refund's error is never another's.
 */
@Injectable()
export class TestRefundBatcher {
  private readonly batcher = new MicroBatcher((refunds: WaitingRefund[]) => this.run(refunds), {
    maxBatch: MAX_BATCH,
    inFlight: BATCHES_IN_FLIGHT,
    gatherTurn: true,
    keysOf: ({ request: { scope, paymentId, idempotencyKey } }) => [
      `payment\u0000${paymentId}`,
      `key\u0000${scope.merchantId}\u0000${String(scope.livemode)}\u0000${idempotencyKey}`,
    ],
  });

  constructor(
    private readonly ledger: Ledger,
    @Inject(PaymentsApiEnv) private readonly env: PaymentsApiEnv,
  ) {}

  /** Requests waiting for a batch slot: all of them while every slot is busy. */
  get queued(): number {
    return this.batcher.queued;
  }

  async refund(request: TestRefundRequest): Promise<TestRefundOutcome> {
    const outcome = await this.batcher.submit({ request, link: linkToCurrentSpan() });
    if (typeof outcome === 'object' && 'error' in outcome) throw outcome.error;
    return outcome;
  }

  /** The batch serves every refund in it, so it belongs to none of their traces or log contexts. */
  private run(refunds: WaitingRefund[]): Promise<Outcome[]> {
    const links = refunds.flatMap((refund) => refund.link ?? []);
    return detached(() =>
      inSpan('test refund batch', { attributes: { 'payhook.batch_size': refunds.length }, links }, () =>
        this.writeAll(refunds.map((refund) => refund.request)),
      ),
    );
  }

  /** The batch in one statement alone; what that cannot settle, again in a transaction under the locks. */
  private async writeAll(requests: TestRefundRequest[]): Promise<Outcome[]> {
    let outcomes: Outcome[];
    try {
      outcomes = await this.ledger.writeInOneStatement((tx) => this.writeIn(tx, requests, { alone: true }));
    } catch (error) {
      if (isStatementAborted(error) || isRowError(error)) return this.writeAllLocked(requests);
      return requests.map(() => ({ error }));
    }
    // A whole remainder read before the statement may have shrunk by the time it ran: read it under the lock.
    const again = requests.flatMap((request, n) =>
      request.amount === undefined && outcomes[n] === 'amount_exceeded' ? [n] : [],
    );
    if (again.length === 0) return outcomes;
    const redone = await this.writeAllLocked(again.map((n) => requests[n]));
    again.forEach((n, k) => (outcomes[n] = redone[k]));
    return outcomes;
  }

  private async writeAllLocked(requests: TestRefundRequest[]): Promise<Outcome[]> {
    try {
      return await this.ledger.write((tx) => this.writeIn(tx, requests, { alone: false }));
    } catch (error) {
      if (error instanceof KeysTaken) {
        const others = requests.filter((_, n) => !error.positions.has(n));
        const outcomes = others.length > 0 ? await this.writeAllLocked(others) : [];
        let next = 0;
        return requests.map((_, n) => (error.positions.has(n) ? 'key_taken' : outcomes[next++]));
      }
      if (requests.length === 1 || !isRowError(error)) return requests.map(() => ({ error }));
      // Halves, one after the other: the split holds only this batch's connection.
      const half = Math.ceil(requests.length / 2);
      return [
        ...(await this.writeAllLocked(requests.slice(0, half))),
        ...(await this.writeAllLocked(requests.slice(half))),
      ];
    }
  }

  /** `alone`: tx is Ledger.writeInOneStatement's (no transaction, no locks); else a Ledger.write transaction. */
  private async writeIn(
    tx: LedgerTx,
    requests: TestRefundRequest[],
    { alone }: { alone: boolean },
  ): Promise<TestRefundOutcome[]> {
    const createdAt = new Date();
    const sales = salesDate(createdAt);
    const payments = await tx.refunds.readForTestRefunds(requests, sales, { lock: !alone });
    const outcomes: TestRefundOutcome[] = [];
    const writes: { position: number; write: TestRefundWrite }[] = [];
    requests.forEach((request, position) => {
      const { scope } = request;
      const payment = payments.get(request.paymentId);
      if (!payment) {
        outcomes[position] = 'payment_not_found';
      } else if (payment.status !== 'completed') {
        outcomes[position] = 'payment_not_completed';
      } else if ((request.amount ?? payment.remainder) <= 0) {
        outcomes[position] = 'amount_exceeded';
      } else {
        const refund = succeededRefund({
          scope,
          paymentId: payment.id,
          orderId: payment.orderId,
          amount: request.amount ?? payment.remainder,
          reason: request.reason ?? null,
          createdAt,
        });
        const body = JSON.stringify({ data: toRefundView(refund) });
        const claim = {
          key: request.idempotencyKey,
          fingerprint: request.fingerprint,
          status: 201,
          body,
          ttlHours: this.env.IDEMPOTENCY_TTL_HOURS,
        };
        outcomes[position] = { body };
        writes.push({ position, write: { refund, sales, payout: payment.payout, claim, by: request.actor } });
      }
    });
    if (writes.length === 0) return outcomes;
    const written = await tx.refunds.succeedAllAtOnce(
      writes.map(({ write }) => write),
      { alone },
    );
    const taken = new Set<number>();
    written.forEach(({ held, claimed }, n) => {
      const { position } = writes[n];
      // Its payment is completed (final): an amount that did not fit is the only reason not to hold.
      if (!held) outcomes[position] = 'amount_exceeded';
      else if (!claimed) taken.add(position);
    });
    if (taken.size > 0) throw new KeysTaken(taken);
    return outcomes;
  }
}
