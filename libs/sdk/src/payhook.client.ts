import { randomUUID } from 'node:crypto';

import {
  type CashReceiptRequest,
  type CashReceiptView,
  type CreatedListenSession,
  type CreatedPaymentView,
  type Deposit,
  type EscrowRequest,
  type EventRedelivery,
  type EventsRecovery,
  type EventSummary,
  type EventType,
  type EventView,
  type IntegrationTest,
  type IntegrationTestStarted,
  type ListEnvelope,
  type ListenSession,
  type Metadata,
  type ModeWebhookEndpoint,
  type PaymentStatus,
  type PaymentView,
  type RefundView,
  type Settlement,
  type TestVoucher,
  type WebhookAttempt,
  type WebhookEndpoint,
} from './payhook-contract';
import { SDK_VERSION } from './version';

/** The parts of the WHATWG fetch the client uses; `globalThis.fetch` fits, and so does a test fake. */
export type PayhookFetch = (
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string; signal?: AbortSignal },
) => Promise<PayhookFetchResponse>;

export interface PayhookFetchResponse {
  status: number;
  headers: { get(name: string): string | null };
  text(): Promise<string>;
}

export interface PayhookClientOptions {
  /** `svc_test_…` or `svc_live_…`. */
  apiKey: string;
  baseUrl?: string;
  /** Retries after the first attempt, for failures that are safe to retry. */
  maxRetries?: number;
  fetch?: PayhookFetch;
  /** First backoff step; doubles per retry, with jitter, up to 10 s. A Retry-After header overrides it. */
  retryBaseDelayMs?: number;
  /** One attempt's limit; a timed-out attempt counts as a network error. */
  timeoutMs?: number;
}

export interface CreatePaymentBody {
  orderId: string;
  customerId: string;
  amount: number;
  currency: 'KRW';
  returnUrl: string;
  /** The part exempt from VAT (면세), 0 to amount; 0 when omitted. */
  taxFreeAmount?: number;
  /** Your own keys, shown on the payment's reads; `{}` when omitted. */
  metadata?: Metadata;
  /** A cash receipt (현금영수증) the buyer asked for: made when the payment completes, its number shown back masked. */
  cashReceipt?: CashReceiptRequest;
  /** An escrow payment (구매안전서비스): the payout waits until the buyer confirms the goods arrived. */
  escrow?: EscrowRequest;
}

export interface CreatePaymentOptions {
  /**
   * Sent as Idempotency-Key. Derive it from your own order (and attempt) so that a retry after a crash or a
   * timeout cannot create a second payment. When omitted, a random key is made once per call and reused by
   * every retry of that call.
   */
  idempotencyKey?: string;
}

/** POST /v1/webhook-endpoints. */
export interface CreateWebhookEndpointBody {
  url: string;
  /** ["payment.completed"] by default. */
  enabledEvents?: EventType[];
  description?: string | null;
}

/** PATCH /v1/webhook-endpoints/{id}: what is given changes; the endpoint is enabled again. */
export type UpdateWebhookEndpointBody = Partial<CreateWebhookEndpointBody>;

export interface ListPaymentsQuery {
  status?: PaymentStatus | readonly PaymentStatus[];
  orderId?: string;
  customerId?: string;
  /** Inclusive. */
  createdFrom?: string | Date;
  /** Exclusive. */
  createdTo?: string | Date;
  /** 1–100, 20 by default. */
  limit?: number;
  /** `nextCursor` of the previous page. */
  cursor?: string;
}

/** POST /v1/payments/{id}/refunds: omit `amount` to refund the whole remainder. */
export interface CreateRefundBody {
  amount?: number;
  /**
   * The refund's part exempt from VAT (면세): 0 to `amount`, at most the payment's tax-free amount not
   * yet refunded, its taxable part at most the taxable amount not yet refunded. Omitted: its share
   * of the tax-free part not yet refunded (a refund of the whole remainder takes all of it).
   */
  taxFreeAmount?: number;
  reason?: string;
  /** Your own keys, shown on the refund's reads; `{}` when omitted. */
  metadata?: Metadata;
  /** Required for live refunds: where the money goes. */
  refundAccount?: { bank: string; accountNumber: string; holderName: string };
}

/** A page of a list: pass `nextCursor` back as `cursor` while `hasMore`. */
export interface PageQuery {
  limit?: number;
  cursor?: string;
}

/** GET /v1/events: newest first, of one type or one payment. */
export interface ListEventsQuery extends PageQuery {
  type?: EventType;
  paymentId?: string;
}

/** GET /v1/refunds: newest first, of one payment or one status. */
export interface ListRefundsQuery extends PageQuery {
  paymentId?: string;
  status?: RefundView['status'];
}

/** GET /v1/cash-receipts: newest first, of one payment or one status. */
export interface ListCashReceiptsQuery extends PageQuery {
  paymentId?: string;
  status?: CashReceiptView['status'];
}

/** GET /v1/settlements: one sales date (`date`) or a range (`from`, `to`), as YYYY-MM-DD in Korea. */
export interface ListSettlementsQuery extends PageQuery {
  date?: string;
  from?: string;
  to?: string;
}

/** POST /v1/payments/{id}/escrow/shipment: each 1–64 printable characters. */
export interface EscrowShipmentBody {
  carrier: string;
  trackingNumber: string;
}

/** POST /v1/test-helpers/deposits: a bank transfer as the bank would report it (test keys). */
export interface TestDepositBody {
  amount: number;
  depositCode?: string;
  depositorName?: string;
  /** The bank's id of the transfer: the same id again answers the deposit it made, so it is safe to retry. */
  bankTransactionId?: string;
}

/** PUT /v1/webhook-endpoint: the mode's first endpoint, made or changed. */
export interface PutModeWebhookEndpointBody {
  url: string;
  enabledEvents?: EventType[];
}

/** POST /v1/listen-sessions/{id}/attempts: what the local handler answered (a status, or the error). */
export interface ListenAttemptReport {
  eventId: string;
  responseStatus: number | null;
  /** The first 1 KiB of the answer's body. */
  responseBody: string | null;
  error: string | null;
  durationMs: number;
}

/** The outcome a test helper gives a pending test payment. */
export type TestPaymentOutcome = 'complete' | 'fail' | 'expire';

/** An error answer of the payments API (docs/merchant-guide.md, Errors), or an answer that was not the API's JSON at all. */
export class PayhookApiError extends Error {
  override readonly name = 'PayhookApiError';

  constructor(
    readonly status: number,
    /** An ErrorCode (docs/merchant-guide.md, Errors), or `unexpected_response` when the body was not an API error. */
    readonly code: string,
    message: string,
    readonly param: string | undefined,
    readonly requestId: string | undefined,
  ) {
    super(message);
  }
}

/** The API could not be reached (connection refused, reset, DNS, timeout) on any attempt. */
export class PayhookConnectionError extends Error {
  override readonly name = 'PayhookConnectionError';

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

const MAX_BACKOFF_MS = 10_000;
/** A Retry-After longer than this is not slept through: the error is returned to the caller instead. */
const MAX_RETRY_AFTER_MS = 60_000;
const USER_AGENT = `payhook-node/${SDK_VERSION}`;

type Outcome<T> =
  { kind: 'success'; value: T } | { kind: 'retry'; error: Error; delayMs?: number } | { kind: 'fail'; error: Error };

/**
 * A small typed client for the payments API. Every call retries what is safe to retry: network errors and
 * timeouts, 5xx, 429 (after its Retry-After) and 409 `idempotency_key_in_use`. Other 4xx answers are the
 * caller's to fix and are thrown at once as PayhookApiError.
 */
export class PayhookClient {
  private readonly apiKey: string;
  private readonly baseUrl: string;
  private readonly maxRetries: number;
  private readonly fetch: PayhookFetch;
  private readonly retryBaseDelayMs: number;
  private readonly timeoutMs: number;

  constructor({
    apiKey,
    baseUrl = 'http://localhost:3000',
    maxRetries = 3,
    fetch = globalThis.fetch,
    retryBaseDelayMs = 200,
    timeoutMs = 30_000,
  }: PayhookClientOptions) {
    if (typeof apiKey !== 'string' || apiKey === '') throw new TypeError('PayhookClient needs an apiKey');
    if (!Number.isSafeInteger(maxRetries) || maxRetries < 0) {
      throw new RangeError('maxRetries must be a non-negative integer');
    }
    if (!Number.isFinite(retryBaseDelayMs) || retryBaseDelayMs < 0) {
      throw new RangeError('retryBaseDelayMs must be a non-negative number');
    }
    if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new RangeError('timeoutMs must be a positive number');
    this.apiKey = apiKey;
    this.baseUrl = normalizeBaseUrl(baseUrl);
    this.maxRetries = maxRetries;
    // Called as a plain function: some fetch implementations refuse to run with another `this`.
    this.fetch = (url, init) => fetch(url, init);
    this.retryBaseDelayMs = retryBaseDelayMs;
    this.timeoutMs = timeoutMs;
  }

  /** POST /v1/payments. The same Idempotency-Key goes with every retry, so at most one payment is made. */
  async createPayment(body: CreatePaymentBody, options: CreatePaymentOptions = {}): Promise<CreatedPaymentView> {
    const idempotencyKey = options.idempotencyKey ?? randomUUID();
    const envelope = await this.request<{ data: CreatedPaymentView }>('POST', '/v1/payments', {
      body: JSON.stringify(body),
      idempotencyKey,
    });
    return envelope.data;
  }

  /** GET /v1/payments/{id}. */
  async getPayment(id: string): Promise<PaymentView> {
    const envelope = await this.request<{ data: PaymentView }>('GET', `/v1/payments/${encodeURIComponent(id)}`);
    return envelope.data;
  }

  /** GET /v1/payments: one page, newest first; pass `nextCursor` back as `cursor` while `hasMore`. */
  async listPayments(query: ListPaymentsQuery = {}): Promise<ListEnvelope<PaymentView>> {
    const { status, orderId, customerId, createdFrom, createdTo, limit, cursor } = query;
    const path = withQuery('/v1/payments', {
      orderId,
      customerId,
      limit,
      cursor,
      status: status === undefined || typeof status === 'string' ? status : status.join(','),
      createdFrom: createdFrom === undefined ? undefined : toIso(createdFrom),
      createdTo: createdTo === undefined ? undefined : toIso(createdTo),
    });
    return this.request<ListEnvelope<PaymentView>>('GET', path);
  }

  /** POST /v1/webhook-endpoints: another endpoint of the key's mode, with its own signing secret. */
  async createWebhookEndpoint(body: CreateWebhookEndpointBody): Promise<WebhookEndpoint> {
    // Not idempotent: a retry after a lost answer could add a second endpoint.
    const envelope = await this.request<{ data: WebhookEndpoint }>('POST', '/v1/webhook-endpoints', {
      body: JSON.stringify(body),
      idempotent: false,
    });
    return envelope.data;
  }

  /** GET /v1/webhook-endpoints: one page, oldest first; pass `nextCursor` back as `cursor` while `hasMore`. */
  async listWebhookEndpoints(query: PageQuery = {}): Promise<ListEnvelope<WebhookEndpoint>> {
    const { limit, cursor } = query;
    return this.request<ListEnvelope<WebhookEndpoint>>('GET', withQuery('/v1/webhook-endpoints', { limit, cursor }));
  }

  /** GET /v1/webhook-endpoints/{id}. */
  async getWebhookEndpoint(id: string): Promise<WebhookEndpoint> {
    return (await this.request<{ data: WebhookEndpoint }>('GET', endpointPath(id))).data;
  }

  /** PATCH /v1/webhook-endpoints/{id}. */
  async updateWebhookEndpoint(id: string, body: UpdateWebhookEndpointBody): Promise<WebhookEndpoint> {
    return (await this.request<{ data: WebhookEndpoint }>('PATCH', endpointPath(id), { body: JSON.stringify(body) }))
      .data;
  }

  /** DELETE /v1/webhook-endpoints/{id}: what it was still owed ends failed (`endpoint_deleted`). */
  async deleteWebhookEndpoint(id: string): Promise<WebhookEndpoint> {
    return (await this.request<{ data: WebhookEndpoint }>('DELETE', endpointPath(id))).data;
  }

  /**
   * POST /v1/webhook-endpoints/{id}/rotate-secret. With `previousSecretExpiresIn` seconds (up to 604,800) the
   * old secret keeps signing `webhook-signature` beside the new one that long.
   */
  async rotateWebhookEndpointSecret(
    id: string,
    options: { previousSecretExpiresIn?: number } = {},
  ): Promise<WebhookEndpoint> {
    const path = `${endpointPath(id)}/rotate-secret`;
    // Not idempotent: a retry after a lost answer would rotate twice, ending the overlap of the first.
    const envelope = await this.request<{ data: WebhookEndpoint }>('POST', path, {
      body: JSON.stringify(options),
      idempotent: false,
    });
    return envelope.data;
  }

  /** POST /v1/payments/{id}/cancel: a canceled payment answers again as it is. */
  async cancelPayment(id: string): Promise<PaymentView> {
    return (await this.request<{ data: PaymentView }>('POST', `${paymentPath(id)}/cancel`)).data;
  }

  /**
   * POST /v1/test-helpers/payments/{id}/complete|fail|expire (test keys): moves a pending test payment as a
   * payer or the expiry would, with its event.
   */
  async moveTestPayment(id: string, outcome: TestPaymentOutcome): Promise<PaymentView> {
    // Not retried after an answer that may have been lost: the retry would find the payment moved (409).
    const path = `/v1/test-helpers/payments/${encodeURIComponent(id)}/${outcome}`;
    return (await this.request<{ data: PaymentView }>('POST', path, { idempotent: false })).data;
  }

  /** POST /v1/payments/{id}/refunds. The same Idempotency-Key goes with every retry: at most one refund. */
  async createRefund(paymentId: string, body: CreateRefundBody = {}, options: CreatePaymentOptions = {}) {
    const envelope = await this.request<{ data: RefundView }>('POST', `${paymentPath(paymentId)}/refunds`, {
      body: JSON.stringify(body),
      idempotencyKey: options.idempotencyKey ?? randomUUID(),
    });
    return envelope.data;
  }

  /** POST /v1/test-helpers/payments/{id}/failed-refund (test keys): a refund of the payment that fails (refund.failed). */
  async createFailedTestRefund(paymentId: string, body: Omit<CreateRefundBody, 'refundAccount'> = {}) {
    const path = `/v1/test-helpers/payments/${encodeURIComponent(paymentId)}/failed-refund`;
    const envelope = await this.request<{ data: RefundView }>('POST', path, {
      body: JSON.stringify(body),
      idempotent: false,
    });
    return envelope.data;
  }

  /** POST /v1/events/{id}/redeliver: the same event once more, to one endpoint or to each that takes it. */
  async redeliverEvent(id: string, options: { endpointId?: string } = {}): Promise<EventRedelivery> {
    const envelope = await this.request<{ data: EventRedelivery }>('POST', `${eventPath(id)}/redeliver`, {
      body: JSON.stringify(options),
      idempotent: false,
    });
    return envelope.data;
  }

  /** GET /v1/events: one page, newest first, each with how its deliveries stand. */
  async listEvents(query: ListEventsQuery = {}): Promise<ListEnvelope<EventSummary>> {
    const { type, paymentId, limit, cursor } = query;
    return this.request<ListEnvelope<EventSummary>>('GET', withQuery('/v1/events', { type, paymentId, limit, cursor }));
  }

  /** GET /v1/events/{id}: the event with what it owes each endpoint and every attempt made. */
  async getEvent(id: string): Promise<EventView> {
    return (await this.request<{ data: EventView }>('GET', eventPath(id))).data;
  }

  /** POST /v1/events/recover: every failed delivery since `since` sent again (of one endpoint, or all), oldest first. */
  async recoverEvents(body: { since: string | Date; endpointId?: string }): Promise<EventsRecovery> {
    // Not idempotent: a retry after a lost answer would queue the deliveries a second time.
    const envelope = await this.request<{ data: EventsRecovery }>('POST', '/v1/events/recover', {
      body: JSON.stringify({ ...body, since: toIso(body.since) }),
      idempotent: false,
    });
    return envelope.data;
  }

  /** GET /v1/refunds: one page, newest first. */
  async listRefunds(query: ListRefundsQuery = {}): Promise<ListEnvelope<RefundView>> {
    const { paymentId, status, limit, cursor } = query;
    return this.request<ListEnvelope<RefundView>>(
      'GET',
      withQuery('/v1/refunds', { paymentId, status, limit, cursor }),
    );
  }

  /** GET /v1/refunds/{id}. */
  async getRefund(id: string): Promise<RefundView> {
    return (await this.request<{ data: RefundView }>('GET', `/v1/refunds/${encodeURIComponent(id)}`)).data;
  }

  /**
   * POST /v1/payments/{id}/cash-receipts: a cash receipt (현금영수증) for a completed payment, covering what was
   * paid and not refunded. A payment has at most one pending or issued receipt (409 `cash_receipt_exists`);
   * after a failed one you may ask again.
   */
  async createCashReceipt(paymentId: string, body: CashReceiptRequest): Promise<CashReceiptView> {
    // Not retried after an answer that may have been lost: the retry would find the receipt made (409
    // cash_receipt_exists); listCashReceipts({ paymentId }) shows it.
    const envelope = await this.request<{ data: CashReceiptView }>('POST', `${paymentPath(paymentId)}/cash-receipts`, {
      body: JSON.stringify(body),
      idempotent: false,
    });
    return envelope.data;
  }

  /** GET /v1/cash-receipts/{id}. */
  async getCashReceipt(id: string): Promise<CashReceiptView> {
    return (await this.request<{ data: CashReceiptView }>('GET', `/v1/cash-receipts/${encodeURIComponent(id)}`)).data;
  }

  /** GET /v1/cash-receipts: one page, newest first; a payment's issue receipt and the cancel receipts of its refunds. */
  async listCashReceipts(query: ListCashReceiptsQuery = {}): Promise<ListEnvelope<CashReceiptView>> {
    const { paymentId, status, limit, cursor } = query;
    return this.request<ListEnvelope<CashReceiptView>>(
      'GET',
      withQuery('/v1/cash-receipts', { paymentId, status, limit, cursor }),
    );
  }

  /**
   * POST /v1/payments/{id}/escrow/shipment: the goods of a completed escrow payment are on their way. The first
   * e-mails the buyer a link to confirm or reject; again while shipped it corrects the carrier and tracking
   * number only (`shippedAt` and `autoConfirmAt` stay). 409 `payment_state_conflict` when the payment is not
   * completed, `escrow_state_conflict` when it has no escrow or its escrow is confirmed or rejected.
   */
  async shipEscrow(paymentId: string, body: EscrowShipmentBody): Promise<PaymentView> {
    const envelope = await this.request<{ data: PaymentView }>('POST', `${paymentPath(paymentId)}/escrow/shipment`, {
      body: JSON.stringify(body),
    });
    return envelope.data;
  }

  /** POST /v1/test-helpers/payments/{id}/escrow/confirm (test keys): the buyer confirms a shipped escrow (escrow.confirmed). */
  async confirmTestEscrow(paymentId: string): Promise<PaymentView> {
    // Not retried after an answer that may have been lost: the retry would find the escrow closed (409).
    const path = `/v1/test-helpers/payments/${encodeURIComponent(paymentId)}/escrow/confirm`;
    return (await this.request<{ data: PaymentView }>('POST', path, { idempotent: false })).data;
  }

  /**
   * POST /v1/test-helpers/payments/{id}/escrow/reject (test keys): the buyer rejects a shipped escrow with a
   * reason of 1–500 characters (escrow.rejected); the payout stays held and the operator reviews the case.
   */
  async rejectTestEscrow(paymentId: string, reason: string): Promise<PaymentView> {
    const path = `/v1/test-helpers/payments/${encodeURIComponent(paymentId)}/escrow/reject`;
    const envelope = await this.request<{ data: PaymentView }>('POST', path, {
      body: JSON.stringify({ reason }),
      idempotent: false,
    });
    return envelope.data;
  }

  /** GET /v1/settlements: one page of settlement records, by sales date. */
  async listSettlements(query: ListSettlementsQuery = {}): Promise<ListEnvelope<Settlement>> {
    const { date, from, to, limit, cursor } = query;
    const path = withQuery('/v1/settlements', { date, from, to, limit, cursor });
    return this.request<ListEnvelope<Settlement>>('GET', path);
  }

  /** GET /v1/settlements/export: one sales date (YYYY-MM-DD) as CSV, a header row then one row per record. */
  async exportSettlements(date: string): Promise<string> {
    return this.request<string>('GET', withQuery('/v1/settlements/export', { date }), { accept: 'text/csv' });
  }

  /** POST /v1/integration-tests (test keys): runs the integration test against the test webhook endpoint. */
  async startIntegrationTest(): Promise<IntegrationTestStarted> {
    // Not idempotent: a retry after a lost answer would start a second run.
    const envelope = await this.request<{ data: IntegrationTestStarted }>('POST', '/v1/integration-tests', {
      idempotent: false,
    });
    return envelope.data;
  }

  /** GET /v1/integration-tests/{id}: the run and each scenario's outcome. */
  async getIntegrationTest(id: string): Promise<IntegrationTest> {
    const path = `/v1/integration-tests/${encodeURIComponent(id)}`;
    return (await this.request<{ data: IntegrationTest }>('GET', path)).data;
  }

  /** GET /v1/webhook-endpoint: the mode's first endpoint, as the single-endpoint form of the API shows it. */
  async getModeWebhookEndpoint(): Promise<ModeWebhookEndpoint> {
    return (await this.request<{ data: ModeWebhookEndpoint }>('GET', '/v1/webhook-endpoint')).data;
  }

  /** PUT /v1/webhook-endpoint: makes the mode's first endpoint, or changes it; the same body twice changes nothing. */
  async putModeWebhookEndpoint(body: PutModeWebhookEndpointBody): Promise<ModeWebhookEndpoint> {
    const envelope = await this.request<{ data: ModeWebhookEndpoint }>('PUT', '/v1/webhook-endpoint', {
      body: JSON.stringify(body),
    });
    return envelope.data;
  }

  /** POST /v1/webhook-endpoint/rotate-secret: a new secret for the mode's first endpoint (an overlap as per endpoint). */
  async rotateModeWebhookEndpointSecret(
    options: { previousSecretExpiresIn?: number } = {},
  ): Promise<ModeWebhookEndpoint> {
    // Not idempotent: a retry after a lost answer would rotate twice, ending the overlap of the first.
    const envelope = await this.request<{ data: ModeWebhookEndpoint }>('POST', '/v1/webhook-endpoint/rotate-secret', {
      body: JSON.stringify(options),
      idempotent: false,
    });
    return envelope.data;
  }

  /**
   * POST /v1/test-helpers/deposits (test keys): a bank transfer as the bank reports it, matched to a payment by
   * its deposit code or sent to review. With `bankTransactionId` a retry answers the deposit it made.
   */
  async createTestDeposit(body: TestDepositBody): Promise<Deposit> {
    const envelope = await this.request<{ data: Deposit }>('POST', '/v1/test-helpers/deposits', {
      body: JSON.stringify(body),
      idempotent: body.bankTransactionId !== undefined,
    });
    return envelope.data;
  }

  /** POST /v1/test-helpers/payments/{id}/deposit (test keys): the payer's transfer for a pending payment. */
  async depositForTestPayment(paymentId: string, body: { amount?: number } = {}): Promise<Deposit> {
    const path = `/v1/test-helpers/payments/${encodeURIComponent(paymentId)}/deposit`;
    const envelope = await this.request<{ data: Deposit }>('POST', path, {
      body: JSON.stringify(body),
      idempotent: false,
    });
    return envelope.data;
  }

  /** POST /v1/test-helpers/vouchers (test keys): a voucher with its PIN, shown only here. */
  async issueTestVoucher(body: { faceValue: number; kind?: 'culture' | 'book' }): Promise<TestVoucher> {
    const envelope = await this.request<{ data: TestVoucher }>('POST', '/v1/test-helpers/vouchers', {
      body: JSON.stringify(body),
      idempotent: false,
    });
    return envelope.data;
  }

  /** POST /v1/listen-sessions (test keys): a session for `payhook listen`, with its own signing secret (only here). */
  async createListenSession(body: { enabledEvents?: EventType[] } = {}): Promise<CreatedListenSession> {
    // Not idempotent: a retry after a lost answer would open a second session.
    const envelope = await this.request<{ data: CreatedListenSession }>('POST', '/v1/listen-sessions', {
      body: JSON.stringify(body),
      idempotent: false,
    });
    return envelope.data;
  }

  /** GET /v1/listen-sessions/{id}: whether the session is still open (its secret is never shown again). */
  async getListenSession(id: string): Promise<ListenSession> {
    return (await this.request<{ data: ListenSession }>('GET', listenSessionPath(id))).data;
  }

  /** DELETE /v1/listen-sessions/{id}: ends the session now. */
  async endListenSession(id: string): Promise<ListenSession> {
    return (await this.request<{ data: ListenSession }>('DELETE', listenSessionPath(id))).data;
  }

  /** POST /v1/listen-sessions/{id}/attempts: the local answer to a forwarded event, recorded as its attempt. */
  async reportListenAttempt(id: string, report: ListenAttemptReport): Promise<WebhookAttempt> {
    const envelope = await this.request<{ data: WebhookAttempt }>('POST', `${listenSessionPath(id)}/attempts`, {
      body: JSON.stringify(report),
      idempotent: false,
    });
    return envelope.data;
  }

  /**
   * The URL and headers of GET /v1/listen-sessions/{id}/stream, a Server-Sent Events stream that stays open:
   * for a streaming reader of the caller's own (this client reads whole answers only).
   */
  listenStreamRequest(id: string, lastEventId?: string): { url: string; headers: Record<string, string> } {
    const headers: Record<string, string> = {
      Authorization: `Bearer ${this.apiKey}`,
      Accept: 'text/event-stream',
      'User-Agent': USER_AGENT,
    };
    if (lastEventId !== undefined) headers['Last-Event-ID'] = lastEventId;
    return { url: `${this.baseUrl}${listenSessionPath(id)}/stream`, headers };
  }

  /** `accept: 'text/csv'` answers the body's text; otherwise the API's JSON envelope. */
  private async request<T>(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    path: string,
    {
      body,
      idempotencyKey,
      idempotent = true,
      accept = 'application/json',
    }: { body?: string; idempotencyKey?: string; idempotent?: boolean; accept?: 'application/json' | 'text/csv' } = {},
  ): Promise<T> {
    const headers: Record<string, string> = {
      Authorization: `Bearer ${this.apiKey}`,
      Accept: accept,
      'User-Agent': USER_AGENT,
    };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (idempotencyKey !== undefined) headers['Idempotency-Key'] = idempotencyKey;

    for (let attempt = 0; ; attempt++) {
      const outcome = await this.attempt<T>(method, `${this.baseUrl}${path}`, headers, body);
      if (outcome.kind === 'success') return outcome.value;
      if (outcome.kind === 'fail' || attempt >= this.maxRetries) throw outcome.error;
      // A call that is not idempotent is tried again only when payhook refused it unread (429).
      if (!idempotent && !(outcome.error instanceof PayhookApiError && outcome.error.status === 429)) {
        throw outcome.error;
      }
      const delayMs = outcome.delayMs ?? this.backoffMs(attempt);
      if (delayMs > MAX_RETRY_AFTER_MS) throw outcome.error;
      await sleep(delayMs);
    }
  }

  private async attempt<T>(
    method: string,
    url: string,
    headers: Record<string, string>,
    body: string | undefined,
  ): Promise<Outcome<T>> {
    let response: PayhookFetchResponse;
    let text: string;
    try {
      response = await this.fetch(url, { method, headers, body, signal: AbortSignal.timeout(this.timeoutMs) });
      text = await response.text();
    } catch (error) {
      const error_ = new PayhookConnectionError(`${method} ${url} failed: ${describeError(error)}`, { cause: error });
      return { kind: 'retry', error: error_ };
    }

    const requestId = response.headers.get('request-id') ?? undefined;
    const parsed = parseJson(text);
    if (response.status >= 200 && response.status < 300) {
      if (headers.Accept === 'text/csv') return { kind: 'success', value: text as T };
      if (isRecord(parsed) && 'data' in parsed) return { kind: 'success', value: parsed as T };
      return { kind: 'fail', error: unexpected(response.status, requestId) };
    }

    const error = toApiError(response.status, parsed, requestId);
    const retryable =
      response.status === 429 ||
      response.status >= 500 ||
      (response.status === 409 && error.code === 'idempotency_key_in_use');
    if (!retryable) return { kind: 'fail', error };
    return { kind: 'retry', error, delayMs: retryAfterMs(response.headers.get('retry-after')) };
  }

  /** Exponential backoff with jitter (50–100 % of the step), so clients that failed together spread out. */
  private backoffMs(attempt: number): number {
    const step = Math.min(MAX_BACKOFF_MS, this.retryBaseDelayMs * 2 ** attempt);
    return Math.round(step * (0.5 + Math.random() / 2));
  }
}

const endpointPath = (id: string) => `/v1/webhook-endpoints/${encodeURIComponent(id)}`;
const eventPath = (id: string) => `/v1/events/${encodeURIComponent(id)}`;
const paymentPath = (id: string) => `/v1/payments/${encodeURIComponent(id)}`;
const listenSessionPath = (id: string) => `/v1/listen-sessions/${encodeURIComponent(id)}`;

/** `path` with the query parameters that are set; each caller names its operation's parameters. */
function withQuery(path: string, query: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) params.set(name, String(value));
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

function normalizeBaseUrl(baseUrl: string): string {
  const url = URL.canParse(baseUrl) ? new URL(baseUrl) : undefined;
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new TypeError('baseUrl must be an absolute http(s) URL, such as http://localhost:3000');
  }
  return url.toString().replace(/\/+$/, '');
}

function toApiError(status: number, parsed: unknown, headerRequestId: string | undefined): PayhookApiError {
  const error = isRecord(parsed) && isRecord(parsed.error) ? parsed.error : undefined;
  if (!error || typeof error.code !== 'string') return unexpected(status, headerRequestId);
  return new PayhookApiError(
    status,
    error.code,
    typeof error.message === 'string' ? error.message : `payhook answered ${status} ${error.code}`,
    typeof error.param === 'string' ? error.param : undefined,
    typeof error.requestId === 'string' ? error.requestId : headerRequestId,
  );
}

function unexpected(status: number, requestId: string | undefined): PayhookApiError {
  return new PayhookApiError(
    status,
    'unexpected_response',
    `payhook answered ${status} with a body that is not the API's JSON`,
    undefined,
    requestId,
  );
}

/** Retry-After as delay-seconds or an HTTP date (RFC 9110 §10.2.3); undefined when absent or unreadable. */
function retryAfterMs(header: string | null): number | undefined {
  if (header === null) return undefined;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function toIso(value: string | Date): string {
  return typeof value === 'string' ? value : value.toISOString();
}

function describeError(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause;
    return cause instanceof Error ? `${error.message} (${cause.message})` : error.message;
  }
  return String(error);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
