import { Inject, Injectable } from '@nestjs/common';
import {
  CURRENCY,
  PAYMENT_STATUSES,
  newId,
  pooledRandomBytes,
  type ListEnvelope,
  type PaymentStatus,
  type PaymentView,
} from '@payhook/contracts';
import { isUniqueViolation } from '@payhook/persistence';
import { PaymentsApiEnv } from '../../platform/config/payments-api.env';
import { isHttpsUrl } from '../../platform/http/validators';
import { bodyFingerprint, IdempotencyKeysRepository, KeyedFingerprints } from '../../core/idempotency';
import { CashReceiptIdentities } from '../cash-receipts';
import type { CreatePaymentRequestDto } from './dto/create-payment.request.dto';
import type { ListPaymentsQueryDto } from './dto/list-payments.query.dto';
import { decodeCursor, encodeCursor } from '../../platform/http/keyset-cursor';
import { PaymentException } from './payment.exception';
import { PaymentTransitionsService } from './payment-transitions.service';
import type { MerchantScope } from '@payhook/auth';
import type { EscrowRecord, PaymentRecord } from '../../core/ledger';
import { toCreatedView, toPaymentView } from './payment.view';
import { PaymentInsertBatcher } from './payment-insert.batcher';
import { ONE_ACTIVE_PER_ORDER, PaymentsRepository, type PaymentFilter } from './payments.repository';
import { addLogFields, inSpan } from '@payhook/observability';

/** What the controller sends: the exact bytes, so a replay is byte-identical to the original. */
export interface CreatePaymentResult {
  status: number;
  body: string;
  replayed: boolean;
}

const DEFAULT_PAGE_SIZE = 20;

/** An escrow as create makes it: waiting for the merchant's shipment. */
const OPEN_ESCROW: EscrowRecord = {
  status: 'awaiting_shipment',
  carrier: null,
  trackingNumber: null,
  shippedAt: null,
  autoConfirmAt: null,
  confirmedAt: null,
  autoConfirmed: null,
  rejectedAt: null,
  rejectReason: null,
};

@Injectable()
export class PaymentsService {
  constructor(
    private readonly payments: PaymentsRepository,
    private readonly inserts: PaymentInsertBatcher,
    private readonly idempotencyKeys: IdempotencyKeysRepository,
    private readonly transitions: PaymentTransitionsService,
    private readonly keyedFingerprints: KeyedFingerprints,
    private readonly cashReceiptIdentities: CashReceiptIdentities,
    @Inject(PaymentsApiEnv) private readonly env: PaymentsApiEnv,
  ) {}

  async create(
    scope: MerchantScope,
    idempotencyKey: string,
    request: CreatePaymentRequestDto,
  ): Promise<CreatePaymentResult> {
    if (scope.livemode && !isHttpsUrl(request.returnUrl)) {
      throw new PaymentException('parameter_invalid', 'returnUrl must use https with a live key.', 'returnUrl');
    }
    const { orderId, customerId, amount, currency, returnUrl, taxFreeAmount, metadata, cashReceipt, escrow } = request;
    // The body as given: an omitted field is left out of the canonical JSON (so keys claimed before
    // these fields existed still match), a given one is covered, whatever its value. A body with a
    // buyer's number or address is fingerprinted under SECRETS_KEY (KeyedFingerprints), as a refund's
    // account is: a bare SHA-256 could be tested against guessed phone numbers and addresses.
    const body = { orderId, customerId, amount, currency, returnUrl, taxFreeAmount, metadata, cashReceipt, escrow };
    const fingerprints: [string, ...string[]] =
      cashReceipt || escrow
        ? this.keyedFingerprints.of({
            ...body,
            cashReceipt: cashReceipt && { ...cashReceipt },
            escrow: escrow && { ...escrow },
          })
        : [bodyFingerprint(body)];
    const [fingerprint] = fingerprints;

    // Two tries: the first may find the order held by an overdue pending payment, which it expires.
    for (let attempt = 1; ; attempt++) {
      const payment = this.newPayment(scope, request);
      const ask = cashReceipt ? this.cashReceiptIdentities.ask(payment, cashReceipt) : null;
      payment.cashReceiptAsked = ask && { type: ask.type, identityNumber: ask.identityNumberMasked };
      const responseBody = JSON.stringify({ data: toCreatedView(payment, this.env.PAY_URL) });
      try {
        const inserted = await inSpan('payment create', { attributes: { 'payhook.payment_id': payment.id } }, () =>
          this.inserts.insert({
            payment,
            idempotencyKey,
            fingerprint,
            responseBody,
            idempotencyTtlHours: this.env.IDEMPOTENCY_TTL_HOURS,
            cashReceiptSecret: ask && { identityNumberSealed: ask.identityNumberSealed, testFailure: ask.testFailure },
            escrowBuyerEmail: escrow?.buyerEmail ?? null,
          }),
        );
        if (inserted) {
          addLogFields({ paymentId: payment.id });
          return { status: 201, body: responseBody, replayed: false };
        }
      } catch (error) {
        if (!isUniqueViolation(error, ONE_ACTIVE_PER_ORDER)) throw error;
        const holder = await this.payments.findActiveForOrder(scope, orderId);
        // The holder may be an overdue pending payment the sweeper has not reached yet.
        const freed = holder === null || (await this.transitions.expireIfOverdue(holder.id));
        if (freed && attempt < 2) continue;
        throw new PaymentException(
          'order_already_active',
          `Order ${orderId} already has payment ${holder?.id ?? 'in progress'}; a new payment is ` +
            'possible once that one has failed, been canceled or expired.',
          'orderId',
        );
      }
      const stored = await this.idempotencyKeys.replayOrReject(scope, idempotencyKey, fingerprints);
      if (stored === 'body_differs') {
        throw new PaymentException(
          'idempotency_key_reused',
          'This Idempotency-Key was used with a different body. Use a new key for a new payment.',
        );
      }
      if (stored === null) {
        // The key expired between the two statements: claim it again.
        if (attempt < 2) continue;
        throw new Error('Idempotency key vanished twice in a row');
      }
      return { status: stored.status, body: stored.body, replayed: true };
    }
  }

  async get(scope: MerchantScope, id: string): Promise<PaymentView> {
    const payment = await this.payments.findById(scope, id);
    if (!payment) throw new PaymentException('resource_not_found', `No such payment: ${id}.`, 'id');
    return toPaymentView(payment, this.env.PAY_URL);
  }

  async list(scope: MerchantScope, query: ListPaymentsQueryDto): Promise<ListEnvelope<PaymentView>> {
    const page = await this.listRecords(scope, query);
    return { ...page, data: page.data.map((payment) => toPaymentView(payment, this.env.PAY_URL)) };
  }

  /** The list with the API's rules, as records: the merchant console shows fields the API view leaves out. */
  async listRecords(scope: MerchantScope, query: ListPaymentsQueryDto): Promise<ListEnvelope<PaymentRecord>> {
    const filter = parseListQuery(query);
    // A cursor must name a payment of this merchant and mode at that exact position; anything
    // else was forged or tampered with.
    if (filter.after && !(await this.payments.existsAt(scope, filter.after))) {
      throw new PaymentException('parameter_invalid', 'cursor is not a cursor this API returned.', 'cursor');
    }
    const rows = await this.payments.list(scope, filter);
    const page = rows.slice(0, filter.limit);
    const last = page.at(-1);
    const hasMore = rows.length > filter.limit;
    return { data: page, hasMore, nextCursor: hasMore && last ? encodeCursor(last) : null };
  }

  private newPayment(scope: MerchantScope, request: CreatePaymentRequestDto): PaymentRecord {
    const createdAt = new Date();
    return {
      id: newId('payment'),
      merchantId: scope.merchantId,
      livemode: scope.livemode,
      orderId: request.orderId,
      customerId: request.customerId,
      amount: request.amount,
      currency: CURRENCY,
      status: 'pending',
      returnUrl: request.returnUrl,
      // 192 random bits, independent of the id: the link cannot be derived from anything else.
      paySuffix: pooledRandomBytes(24).toString('base64url'),
      expiresAt: new Date(createdAt.getTime() + this.env.PAYMENT_TTL_SECONDS * 1000),
      createdAt,
      completedAt: null,
      refundedAmount: 0,
      taxFreeAmount: request.taxFreeAmount ?? 0,
      metadata: request.metadata ?? {},
      cashReceiptAsked: null,
      escrow: request.escrow ? OPEN_ESCROW : null,
    };
  }
}

function parseListQuery(query: ListPaymentsQueryDto): PaymentFilter {
  const filter: PaymentFilter = { limit: query.limit ? Number(query.limit) : DEFAULT_PAGE_SIZE };
  if (query.status !== undefined) {
    const statuses = query.status.split(',');
    const unknown = statuses.find((status) => !(PAYMENT_STATUSES as readonly string[]).includes(status));
    if (unknown !== undefined) {
      throw new PaymentException(
        'parameter_invalid',
        `Unknown status "${unknown}": use ${PAYMENT_STATUSES.join(', ')}.`,
        'status',
      );
    }
    filter.statuses = [...new Set(statuses)] as PaymentStatus[];
  }
  if (query.orderId !== undefined) filter.orderId = query.orderId;
  if (query.customerId !== undefined) filter.customerId = query.customerId;
  if (query.createdFrom !== undefined) filter.createdFrom = parseInstant(query.createdFrom, 'createdFrom');
  if (query.createdTo !== undefined) filter.createdTo = parseInstant(query.createdTo, 'createdTo');
  if (query.cursor !== undefined) {
    const cursor = decodeCursor(query.cursor, 'payment');
    if (!cursor) throw new PaymentException('parameter_invalid', 'cursor is not a cursor this API returned.', 'cursor');
    filter.after = cursor;
  }
  return filter;
}

/** A date alone means its midnight UTC. Rejects days that do not exist, such as 2026-02-30. */
function parseInstant(text: string, param: string): Date {
  const date = new Date(text.length === 10 ? `${text}T00:00:00Z` : text);
  if (Number.isNaN(date.getTime()) || !isRealCalendarDay(text.slice(0, 10))) {
    throw new PaymentException('parameter_invalid', `${param} is not a valid ISO 8601 date.`, param);
  }
  return date;
}

function isRealCalendarDay(day: string): boolean {
  const [year, month, date] = day.split('-').map(Number);
  const probe = new Date(Date.UTC(year, month - 1, date));
  return probe.getUTCFullYear() === year && probe.getUTCMonth() === month - 1 && probe.getUTCDate() === date;
}
