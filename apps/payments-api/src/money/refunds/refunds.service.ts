import { Inject, Injectable } from '@nestjs/common';
import type { MerchantScope } from '@payhook/auth';
import type { ListEnvelope, Metadata, RefundView } from '@payhook/contracts';
import { AuditLog, type AuditActor } from '../../core/audit';
import { PaymentsApiEnv } from '../../platform/config/payments-api.env';
import { decodeCursor, encodeCursor } from '../../platform/http/keyset-cursor';
import { IdempotencyKeysRepository, KeyedFingerprints } from '../../core/idempotency';
import {
  Ledger,
  refundableRemainder,
  type HoldRefusal,
  type LedgerTx,
  type NotYetRefunded,
  type RefundRecord,
} from '../../core/ledger';
import type { ListRefundsQueryDto } from './dto/list-refunds.query.dto';
import { pendingRefund } from './new-refund';
import { RefundAccounts } from './refund-accounts';
import { RefundException } from './refund.exception';
import { toRefundView, type RefundAccount } from './refund.view';
import { RefundsRepository, type RefundFilter } from './refunds.repository';
import { TestRefundBatcher } from './test-refund.batcher';

/** POST /v1/payments/{id}/refunds body, as validated by CreateRefundRequestDto (the console's form sends the same). */
export interface CreateRefundInput {
  amount?: number;
  /** Omitted: the amount's share of the payment's tax-free part not yet refunded (decided by the ledger). */
  taxFreeAmount?: number;
  reason?: string;
  metadata?: Metadata;
  refundAccount?: RefundAccount;
}

/** The test helper's refund that fails: a refund's body without an account. */
export type FailedTestRefundInput = Omit<CreateRefundInput, 'refundAccount'>;

/** What the controller sends: the exact bytes ({data: RefundView}), so a replay is byte-identical to the original. */
export interface CreateRefundResult {
  status: number;
  body: string;
  replayed: boolean;
}

const DEFAULT_PAGE_SIZE = 20;
/** The console shows at most this many refunds of one payment (a payment is refunded in few parts). */
const REFUNDS_OF_PAYMENT_SHOWN = 100;

/** Thrown inside the ledger transaction to roll it back: the key was claimed by an earlier request. */
class KeyAlreadyClaimed extends Error {}

/** Why the test helper's refund failed, as an operator would say it. */
const TEST_REFUND_FAILURE = 'The test bank refused the transfer (test helper).';

const REFUSALS: Record<Exclude<HoldRefusal, 'tax_free_amount_invalid'>, (paymentId: string) => RefundException> = {
  payment_not_found: (id) => new RefundException('resource_not_found', `No such payment: ${id}.`, 'id'),
  payment_not_completed: (id) =>
    new RefundException(
      'payment_state_conflict',
      `Payment ${id} is not completed: only a completed payment can be refunded.`,
    ),
  amount_exceeded: (id) =>
    new RefundException(
      'refund_amount_exceeded',
      `The refund exceeds what is left to refund of payment ${id}: its amount less its succeeded and pending ` +
        'refunds and less the part paid with vouchers, which is not refundable by transfer.',
      'amount',
    ),
};

/** Refunds of completed payments: the merchant API's and the console's way in. */
@Injectable()
export class RefundsService {
  constructor(
    private readonly audit: AuditLog,
    private readonly ledger: Ledger,
    private readonly testRefunds: TestRefundBatcher,
    private readonly refunds: RefundsRepository,
    private readonly accounts: RefundAccounts,
    private readonly idempotencyKeys: IdempotencyKeysRepository,
    private readonly fingerprints: KeyedFingerprints,
    @Inject(PaymentsApiEnv) private readonly env: PaymentsApiEnv,
  ) {}

  /**
   * A test refund succeeds at once, in a batch of the refunds that arrive with it (TestRefundBatcher);
   * a live one is one ledger transaction: the guarded reserve of the amount on the payment (its row
   * lock), the pending refund row and the idempotency key claimed with the answer it replays. A key
   * claimed before rolls it all back and replays (or 422s); a refusal is not remembered, as create's.
   */
  async create(
    scope: MerchantScope,
    paymentId: string,
    idempotencyKey: string,
    input: CreateRefundInput,
    by: AuditActor,
  ): Promise<CreateRefundResult> {
    if (scope.livemode && !input.refundAccount) {
      throw new RefundException(
        'parameter_missing',
        'Missing field: refundAccount. A live refund needs the bank account to send the money to.',
        'refundAccount',
      );
    }
    refuseTaxFreeOverAmount(input);
    const { amount, taxFreeAmount, reason, metadata, refundAccount } = input;
    // The payment is part of what the key stands for: the same body for another payment is another request.
    // (Fields left out are left out of the fingerprint: a key stored before a field existed still matches.)
    const fingerprints = this.fingerprints.of({
      paymentId,
      body: { amount, taxFreeAmount, reason, metadata, refundAccount },
    });
    // Each pass ends in an answer unless the key expired between its two statements; then the next
    // pass claims it afresh (a key lives IDEMPOTENCY_TTL_HOURS: it cannot expire again at once).
    for (;;) {
      const outcome = scope.livemode
        ? await this.ledger
            .write((tx) => this.createLiveIn(tx, scope, paymentId, idempotencyKey, input, fingerprints[0], by))
            .catch((error: unknown) => {
              if (error instanceof KeyAlreadyClaimed) return 'key_taken' as const;
              throw error;
            })
        : await this.testRefunds.refund({
            scope,
            paymentId,
            idempotencyKey,
            fingerprint: fingerprints[0],
            amount,
            taxFreeAmount,
            reason,
            metadata,
            actor: by,
          });
      // The request's lines name the payment already: the route's IdParam, or the console's refund service.
      if (typeof outcome === 'object') return { status: 201, body: outcome.body, replayed: false };
      // A refusal may be the retry of a request that took the last of the amount: its answer wins.
      const stored = await this.idempotencyKeys.replayOrReject(scope, idempotencyKey, fingerprints);
      if (stored === 'body_differs') {
        throw new RefundException(
          'idempotency_key_reused',
          'This Idempotency-Key was used with a different body or payment. Use a new key for a new refund.',
        );
      }
      if (stored !== null) return { status: stored.status, body: stored.body, replayed: true };
      if (outcome !== 'key_taken') throw await this.refusal(scope, paymentId, outcome);
    }
  }

  /**
   * The test helper's refund that fails (refund.failed): held, inserted pending and failed in one
   * ledger write, as a live refund the operator reports failed, so its amount is refundable again.
   * Audited as every refund made through the API is, in the same transaction.
   */
  async failedTestRefund(
    scope: MerchantScope,
    paymentId: string,
    input: FailedTestRefundInput,
    by: AuditActor,
  ): Promise<RefundView> {
    refuseTaxFreeOverAmount(input);
    const outcome = await this.ledger.write(async (tx) => {
      const refund = await this.insertPendingIn(tx, scope, paymentId, input, by, () => null);
      if (typeof refund === 'string') return refund;
      return tx.refunds.fail(refund.id, TEST_REFUND_FAILURE);
    });
    if (typeof outcome === 'string') throw await this.refusal(scope, paymentId, outcome);
    if (!outcome) throw new Error('a refund inserted pending in this transaction did not fail');
    return toRefundView(outcome);
  }

  async get(scope: MerchantScope, id: string): Promise<RefundView> {
    const refund = await this.refunds.findById(scope, id);
    if (!refund) throw new RefundException('resource_not_found', `No such refund: ${id}.`, 'id');
    return toRefundView(refund);
  }

  async list(scope: MerchantScope, query: ListRefundsQueryDto): Promise<ListEnvelope<RefundView>> {
    const filter: RefundFilter = { limit: query.limit ? Number(query.limit) : DEFAULT_PAGE_SIZE };
    if (query.paymentId !== undefined) filter.paymentId = query.paymentId;
    if (query.status !== undefined) filter.status = query.status;
    if (query.cursor !== undefined) {
      const cursor = decodeCursor(query.cursor, 'refund');
      // A cursor must name a refund of this merchant and mode at that exact position.
      if (!cursor || !(await this.refunds.existsAt(scope, cursor))) throw forgedCursor();
      filter.after = cursor;
    }
    const rows = await this.refunds.list(scope, filter);
    return page(rows, filter.limit, toRefundView);
  }

  /**
   * What a new refund of a completed payment may still take, as the guarded hold counts it: the
   * amount less the vouchers it redeemed and its succeeded and pending refunds (for the console).
   */
  async refundable(scope: MerchantScope, paymentId: string): Promise<number> {
    const held = await this.refunds.heldOf(scope, paymentId);
    if (!held) return 0;
    const voucherValue = await this.ledger.heldVoucherValue(paymentId);
    return Math.max(0, refundableRemainder({ amount: held.amount, refundHeld: held.refundHeldAmount, voucherValue }));
  }

  /**
   * The payment's amount and tax-free part that no refund has taken yet (succeeded and pending
   * refunds count), as the ledger's tax-free rules read them: for the console's refund form.
   */
  async notYetRefunded(scope: MerchantScope, paymentId: string): Promise<NotYetRefunded> {
    const held = await this.refunds.heldOf(scope, paymentId);
    if (!held) return { amount: 0, taxFreeAmount: 0 };
    return {
      amount: held.amount - held.refundHeldAmount,
      taxFreeAmount: held.taxFreeAmount - held.refundHeldTaxFreeAmount,
    };
  }

  /** A payment's refunds for the console, newest first, at most REFUNDS_OF_PAYMENT_SHOWN. */
  async ofPayment(scope: MerchantScope, paymentId: string): Promise<RefundView[]> {
    return (await this.refunds.ofPayment(scope, paymentId, REFUNDS_OF_PAYMENT_SHOWN)).map(toRefundView);
  }

  private async createLiveIn(
    tx: LedgerTx,
    scope: MerchantScope,
    paymentId: string,
    idempotencyKey: string,
    input: CreateRefundInput,
    fingerprint: string,
    by: AuditActor,
  ): Promise<{ body: string } | HoldRefusal> {
    const { refundAccount } = input;
    if (!refundAccount) throw new Error('a live refund is made with a refund account (checked by create)');
    const refund = await this.insertPendingIn(tx, scope, paymentId, input, by, (id) =>
      this.accounts.seal(id, refundAccount),
    );
    if (typeof refund === 'string') return refund;
    const body = JSON.stringify({ data: toRefundView(refund) });
    const claimed = await tx.idempotency.claim(scope, {
      key: idempotencyKey,
      fingerprint,
      status: 201,
      body,
      ttlHours: this.env.IDEMPOTENCY_TTL_HOURS,
    });
    if (!claimed) throw new KeyAlreadyClaimed();
    return { body };
  }

  /**
   * The refusal of a refund the ledger did not hold. A tax-free part that did not fit is told with
   * what is left now (read after the refusal: another refund may have moved it since).
   */
  private async refusal(scope: MerchantScope, paymentId: string, why: HoldRefusal): Promise<RefundException> {
    if (why !== 'tax_free_amount_invalid') return REFUSALS[why](paymentId);
    const left = await this.notYetRefunded(scope, paymentId);
    return new RefundException(
      'parameter_invalid',
      `taxFreeAmount does not fit payment ${paymentId}: a refund's tax-free part is from 0 to its amount, at most ` +
        `the payment's tax-free amount not yet refunded (${left.taxFreeAmount} now), and its taxable part ` +
        `(amount − taxFreeAmount) at most the taxable amount not yet refunded (${left.amount - left.taxFreeAmount} ` +
        'now); succeeded and pending refunds count.',
      'taxFreeAmount',
    );
  }

  /**
   * A pending refund of what the guarded hold allows, inserted and audited in `tx`; the hold's
   * refusal when it allows nothing. `sealAccount` seals the payer's refund account (live) or gives none.
   */
  private async insertPendingIn(
    tx: LedgerTx,
    scope: MerchantScope,
    paymentId: string,
    input: FailedTestRefundInput,
    by: AuditActor,
    sealAccount: (refundId: string) => string | null,
  ): Promise<RefundRecord | HoldRefusal> {
    const hold = await tx.refunds.hold(scope, paymentId, {
      amount: input.amount,
      taxFreeAmount: input.taxFreeAmount,
    });
    if (typeof hold === 'string') return hold;
    const refund = pendingRefund(
      {
        scope,
        paymentId,
        orderId: hold.payment.orderId,
        amount: hold.amount,
        taxFreeAmount: hold.taxFreeAmount,
        reason: input.reason ?? null,
        metadata: input.metadata ?? {},
        createdAt: new Date(),
      },
      sealAccount,
    );
    await tx.refunds.insertPending([refund]);
    await this.audit.record(tx.sql, {
      ...by,
      merchantId: scope.merchantId,
      action: 'refund.created',
      target: refund.id,
    });
    return refund;
  }
}

/**
 * A tax-free part larger than the refund's own amount is refused before anything is read: no
 * payment could make it fit. (With the amount omitted, the ledger checks it against the remainder.)
 */
function refuseTaxFreeOverAmount({ amount, taxFreeAmount }: { amount?: number; taxFreeAmount?: number }): void {
  if (amount !== undefined && taxFreeAmount !== undefined && taxFreeAmount > amount) {
    throw new RefundException(
      'parameter_invalid',
      `taxFreeAmount (${taxFreeAmount}) is more than the refund's amount (${amount}): a refund's tax-free part is ` +
        'from 0 to its amount.',
      'taxFreeAmount',
    );
  }
}

/** A page of a list fetched with one extra row: hasMore and the cursor after its last item. */
export function page<T>(rows: RefundRecord[], limit: number, view: (refund: RefundRecord) => T): ListEnvelope<T> {
  const shown = rows.slice(0, limit);
  const last = shown.at(-1);
  const hasMore = rows.length > limit;
  return { data: shown.map(view), hasMore, nextCursor: hasMore && last ? encodeCursor(last) : null };
}

export function forgedCursor(): RefundException {
  return new RefundException('parameter_invalid', 'cursor is not a cursor this API returned.', 'cursor');
}
