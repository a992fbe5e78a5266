import { Inject, Injectable } from '@nestjs/common';
import type { Link } from '@opentelemetry/api';
import type { MerchantScope } from '@payhook/auth';
import type { Metadata } from '@payhook/contracts';
import { detached, inSpan, linkToCurrentSpan } from '@payhook/observability';
import { MicroBatcher, isRowError, together } from '@payhook/persistence';
import { AuditLog, type AuditActor } from '../../core/audit';
import { PaymentsApiEnv } from '../../platform/config/payments-api.env';
import { Ledger, decideRefund, type HoldRefusal, type LedgerTx, type RefundRecord } from '../../core/ledger';
import { pendingRefund } from './new-refund';
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
  /** Omitted: the amount's share of the tax-free part not yet refunded, read under the same lock. */
  taxFreeAmount?: number;
  reason?: string;
  /** Stored in the refund's row: no statement of its own. */
  metadata?: Metadata;
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
 * Test refunds that arrive together share one transaction, as creates share a statement (ADR 0013,
 * ADR 0015): a commit and a few round trips serve many refunds. Each is a refund like a live one,
 * made by the same ledger writers: its payment locked (in id order, so two batches sharing payments
 * queue instead of deadlocking), its amount held, the refund inserted pending, then moved to
 * succeeded at once with its event and settlement record, its key claimed with the answer it
 * replays, and its audit entry, each writer taking the whole batch in one statement. Four round
 * trips a batch: BEGIN and the locked read; the hold, the insert and the move; the events, records,
 * key claims and audit entries; COMMIT.
 *
 * No batch holds two refunds of one payment (a statement updates a row once) or two uses of one key
 * (a statement claims a key once). A refund whose key turns out taken rolls the batch back and the
 * others go again without it; a statement that fails on a row of its own is split in halves until the
 * failing refund stands alone, so one refund's error is never another's.
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
    private readonly audit: AuditLog,
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

  private async writeAll(requests: TestRefundRequest[]): Promise<Outcome[]> {
    try {
      return await this.ledger.write((tx) => this.writeIn(tx, requests));
    } catch (error) {
      if (error instanceof KeysTaken) {
        const others = requests.filter((_, n) => !error.positions.has(n));
        const outcomes = others.length > 0 ? await this.writeAll(others) : [];
        let next = 0;
        return requests.map((_, n) => (error.positions.has(n) ? 'key_taken' : outcomes[next++]));
      }
      if (requests.length === 1 || !isRowError(error)) return requests.map(() => ({ error }));
      // Halves, one after the other: the split holds only this batch's connection.
      const half = Math.ceil(requests.length / 2);
      return [...(await this.writeAll(requests.slice(0, half))), ...(await this.writeAll(requests.slice(half)))];
    }
  }

  private async writeIn(tx: LedgerTx, requests: TestRefundRequest[]): Promise<TestRefundOutcome[]> {
    // The batch's statements are planned once per connection, whatever its size (Ledger.write's plan settings).
    const payments = await tx.refunds.lockRefundable(requests);
    const outcomes: TestRefundOutcome[] = [];
    const refunds: { position: number; refund: RefundRecord }[] = [];
    const createdAt = new Date();
    requests.forEach((request, position) => {
      const payment = payments.get(request.paymentId);
      const decided = decideRefund(payment, request);
      if (typeof decided === 'string') outcomes[position] = decided;
      else if (payment) {
        const { scope, reason = null, metadata = {} } = request;
        const newRefund = {
          scope,
          paymentId: payment.id,
          orderId: payment.orderId,
          ...decided,
          reason,
          metadata,
          createdAt,
        };
        refunds.push({ position, refund: pendingRefund(newRefund, () => null) });
      }
    });
    if (refunds.length === 0) return outcomes;

    let bodies: string[] = [];
    // Under lockRefundable's locks what decideRefund allowed is held (holdAll throws otherwise), and the
    // move needs the inserted rows, not the insert's answer: the hold, the insert and the move go out
    // together, in this order. The key claims and audit entries go out with the move's records.
    await together([
      tx.refunds.holdAll(
        refunds.map(({ position, refund }) => ({
          scope: requests[position].scope,
          paymentId: refund.paymentId,
          amount: refund.amount,
          taxFreeAmount: refund.taxFreeAmount,
        })),
      ),
      tx.refunds.insertPending(refunds.map(({ refund }) => refund)),
      // The batch holds its payments' locks since lockRefundable: the running totals are read after them.
      tx.refunds.succeed(
        refunds.map(({ refund }) => ({ id: refund.id, bankTransactionId: null })),
        {
          paymentsLocked: true,
          alongside: async (moved) => {
            bodies = this.answers(refunds, moved);
            await this.claimKeysAndAudit(tx, requests, refunds, bodies);
          },
        },
      ),
    ]);
    refunds.forEach(({ position }, n) => (outcomes[position] = { body: bodies[n] }));
    return outcomes;
  }

  /** Each refund's answer (the body its key replays), from its row as the move left it. */
  private answers(refunds: readonly { refund: RefundRecord }[], moved: readonly RefundRecord[]): string[] {
    const succeeded = new Map(moved.map((refund) => [refund.id, refund]));
    return refunds.map(({ refund }) => {
      const row = succeeded.get(refund.id);
      if (!row) throw new Error(`test refund ${refund.id}, inserted pending in this transaction, did not succeed`);
      return JSON.stringify({ data: toRefundView(row) });
    });
  }

  /** The key claims and the audit entries, sent together: a key found taken rolls both back (KeysTaken). */
  private async claimKeysAndAudit(
    tx: LedgerTx,
    requests: readonly TestRefundRequest[],
    refunds: readonly { position: number; refund: RefundRecord }[],
    bodies: readonly string[],
  ): Promise<void> {
    const [claimed] = await together([
      tx.idempotency.claimAll(
        refunds.map(({ position }, n) => ({
          scope: requests[position].scope,
          claim: {
            key: requests[position].idempotencyKey,
            fingerprint: requests[position].fingerprint,
            status: 201,
            body: bodies[n],
            ttlHours: this.env.IDEMPOTENCY_TTL_HOURS,
          },
        })),
      ),
      this.audit.recordAll(
        tx.sql,
        refunds.map(({ position, refund }) => ({
          ...requests[position].actor,
          merchantId: refund.merchantId,
          action: 'refund.created' as const,
          target: refund.id,
        })),
      ),
    ]);
    const taken = new Set(refunds.flatMap(({ position }, n) => (claimed[n] ? [] : [position])));
    if (taken.size > 0) throw new KeysTaken(taken);
  }
}
