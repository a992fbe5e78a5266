/**
 * The part of payhook's wire contract a merchant's code needs: payment, refund, cash receipt, escrow and event
 * shapes, error codes, webhook headers, the id format.
 *
 * Why copies instead of imports from libs/contracts: the SDK is published on its own as `@payhook/sdk`
 * and runs in a merchant's project, where the monorepo's `@payhook/contracts` path does not exist. The
 * copies are small and kept equal to the originals by tests, not by hand: contract-copies.spec.ts holds
 * every type here both ways against libs/contracts (and every constant by value), and
 * openapi-types.check.ts holds the same types against the published reference (docs/openapi.json).
 * A change on one side only fails `npm run typecheck` or the unit tests.
 */

export type PaymentStatus = 'pending' | 'completed' | 'failed' | 'canceled' | 'expired';

export const CURRENCY = 'KRW';
export const MIN_AMOUNT = 1;
export const MAX_AMOUNT = 10_000_000_000;

/**
 * Your own keys on a payment: at most METADATA_MAX_KEYS keys, each 1 to METADATA_KEY_MAX_CHARS of
 * `[A-Za-z0-9_.-]`, with string values of 0 to METADATA_VALUE_MAX_CHARS printable characters.
 */
export type Metadata = Record<string, string>;
export const METADATA_MAX_KEYS = 20;
export const METADATA_KEY_MAX_CHARS = 40;
export const METADATA_VALUE_MAX_CHARS = 500;

/** The payment as create returns it. */
export interface CreatedPaymentView {
  id: string;
  orderId: string;
  amount: number;
  currency: typeof CURRENCY;
  status: PaymentStatus;
  /** Where to send the customer to pay. */
  payUrl: string;
  expiresAt: string;
}

/** The payment as get and list return it. */
export interface PaymentView extends CreatedPaymentView {
  createdAt: string;
  completedAt: string | null;
  livemode: boolean;
  /** The sum of the payment's succeeded refunds, 0 before any; not on the create response. */
  refundedAmount: number;
  /** The part exempt from VAT (면세), 0 to amount; 0 unless create gave one. */
  taxFreeAmount: number;
  /** VAT inside the taxable part (amount − taxFreeAmount), to the nearest won: ₩15,000 → 1,364. */
  vat: number;
  /** The taxable part less its VAT (공급가액): ₩15,000 → 13,636. */
  suppliedAmount: number;
  /** As create gave it; `{}` when none. */
  metadata: Metadata;
  /** The escrow of an escrow payment (구매안전서비스); null for any other. */
  escrow: EscrowView | null;
}

/** One page of a list: pass `nextCursor` back as `cursor` while `hasMore`. */
export interface ListEnvelope<T> {
  data: T[];
  hasMore: boolean;
  nextCursor: string | null;
}

/** Every `error.code` the payments API answers with. */
export type ErrorCode =
  | 'parameter_invalid'
  | 'parameter_missing'
  | 'parameter_unknown'
  | 'body_invalid_json'
  | 'idempotency_key_missing'
  | 'idempotency_key_invalid'
  | 'authentication_required'
  | 'api_key_invalid'
  | 'live_mode_locked'
  | 'test_mode_only'
  | 'resource_not_found'
  | 'idempotency_key_in_use'
  | 'payment_state_conflict'
  | 'order_already_active'
  | 'merchant_state_conflict'
  | 'review_state_conflict'
  | 'recover_in_progress'
  | 'refund_amount_exceeded'
  | 'refund_state_conflict'
  | 'cash_receipt_exists'
  | 'cash_receipt_state_conflict'
  | 'escrow_state_conflict'
  | 'endpoint_limit_reached'
  | 'listen_session_limit_reached'
  | 'listen_session_ended'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'idempotency_key_reused'
  | 'rate_limited'
  | 'internal_error'
  | 'service_unavailable';

/** The webhook body of payment.completed; its bytes are fixed when the payment completes. */
export interface PaymentCompletedEvent {
  id: string;
  type: 'payment.completed';
  createdAt: string;
  data: {
    paymentId: string;
    orderId: string;
    amount: number;
    currency: 'KRW';
    completedAt: string;
  };
}

/** `data` of the outcomes other than completion: the payment as it ended. */
interface PaymentOutcome<Status extends string> {
  paymentId: string;
  orderId: string;
  amount: number;
  currency: 'KRW';
  status: Status;
}

/** The webhook body of payment.failed. */
export interface PaymentFailedEvent {
  id: string;
  type: 'payment.failed';
  createdAt: string;
  data: PaymentOutcome<'failed'> & { failedAt: string };
}

/** The webhook body of payment.canceled. */
export interface PaymentCanceledEvent {
  id: string;
  type: 'payment.canceled';
  createdAt: string;
  data: PaymentOutcome<'canceled'> & { canceledAt: string };
}

/** The webhook body of payment.expired. */
export interface PaymentExpiredEvent {
  id: string;
  type: 'payment.expired';
  createdAt: string;
  data: PaymentOutcome<'expired'> & { expiredAt: string };
}

/** Every payment outcome's webhook body: `switch (event.type)` narrows `event.data`. */
export type PaymentEvent = PaymentCompletedEvent | PaymentFailedEvent | PaymentCanceledEvent | PaymentExpiredEvent;

/** `data` of a refund event: the refund as it ended. */
interface RefundOutcome<Status extends string> {
  refundId: string;
  paymentId: string;
  orderId: string;
  amount: number;
  currency: 'KRW';
  status: Status;
  reason: string | null;
}

/** The webhook body of refund.succeeded: the money is back with the payer. */
export interface RefundSucceededEvent {
  id: string;
  type: 'refund.succeeded';
  createdAt: string;
  data: RefundOutcome<'succeeded'> & { succeededAt: string };
}

/** The webhook body of refund.failed: the refund's amount is refundable again. */
export interface RefundFailedEvent {
  id: string;
  type: 'refund.failed';
  createdAt: string;
  data: RefundOutcome<'failed'> & { failedAt: string };
}

export type RefundEvent = RefundSucceededEvent | RefundFailedEvent;

/** A receipt's life: `pending` until the tax office answers (at once in test mode). */
export type CashReceiptStatus = 'pending' | 'issued' | 'failed';

/** 소득공제 (income deduction, for a person) or 지출증빙 (expense proof, for a business). */
export const CASH_RECEIPT_TYPES = ['income_deduction', 'expense_proof'] as const;
export type CashReceiptType = (typeof CASH_RECEIPT_TYPES)[number];

/** `issue` covers a payment; `cancel` takes back what one of its refunds returned. */
export type CashReceiptTransactionType = 'issue' | 'cancel';

/**
 * A cash receipt (현금영수증): GET /v1/cash-receipts/{id}, and `data` of the cash_receipt.* events. The
 * buyer's number is masked, every digit but the last four as `*`.
 */
export interface CashReceiptView {
  id: string;
  paymentId: string;
  /** The refund a cancel receipt takes back; null on an issue receipt. */
  refundId: string | null;
  orderId: string;
  transactionType: CashReceiptTransactionType;
  type: CashReceiptType;
  identityNumber: string;
  /** Issued unasked, to the tax office's own number, for a merchant that must (의무발행업종). */
  selfIssued: boolean;
  amount: number;
  taxFreeAmount: number;
  vat: number;
  suppliedAmount: number;
  status: CashReceiptStatus;
  /** The tax office's approval number; null until issued. */
  issueNumber: string | null;
  failureReason: string | null;
  livemode: boolean;
  createdAt: string;
  issuedAt: string | null;
  failedAt: string | null;
}

/** What the buyer asks for: create's `cashReceipt`, and POST /v1/payments/{id}/cash-receipts. */
export interface CashReceiptRequest {
  type: CashReceiptType;
  /**
   * income_deduction: a mobile number (10–11 digits starting 01) or a cash receipt card number (13–19
   * digits); expense_proof: a business registration number (10 digits, its check digit right) or a card
   * number. Hyphens and spaces are ignored.
   */
  identityNumber: string;
}

/** The webhook body of cash_receipt.issued: the tax office gave the receipt its number. */
export interface CashReceiptIssuedEvent {
  id: string;
  type: 'cash_receipt.issued';
  createdAt: string;
  data: CashReceiptView & { status: 'issued'; issueNumber: string; issuedAt: string };
}

/** The webhook body of cash_receipt.failed: no receipt; the buyer may ask again. */
export interface CashReceiptFailedEvent {
  id: string;
  type: 'cash_receipt.failed';
  createdAt: string;
  data: CashReceiptView & { status: 'failed'; failureReason: string; failedAt: string };
}

export type CashReceiptEvent = CashReceiptIssuedEvent | CashReceiptFailedEvent;

/** An escrow's life: the buyer's money waits until the buyer confirms the goods arrived. */
export type EscrowStatus = 'awaiting_shipment' | 'shipped' | 'confirmed' | 'rejected';

/** Create's `escrow` (구매안전서비스): the buyer's e-mail address, to which the confirmation link goes at the first shipment. */
export interface EscrowRequest {
  /** An e-mail address of 3 to 254 characters; never shown back. */
  buyerEmail: string;
}

/** A payment's escrow as reads show it; each field null until it applies. The buyer's address is never shown. */
export interface EscrowView {
  status: EscrowStatus;
  carrier: string | null;
  trackingNumber: string | null;
  shippedAt: string | null;
  /** 00:00 Asia/Seoul of the day a shipped escrow confirms by itself. */
  autoConfirmAt: string | null;
  confirmedAt: string | null;
  rejectedAt: string | null;
  rejectReason: string | null;
}

/** `data` of an escrow event: the escrow as it closed, on its payment; null where a field does not apply. */
interface EscrowOutcome<Status extends EscrowStatus> {
  paymentId: string;
  orderId: string;
  amount: number;
  currency: 'KRW';
  status: Status;
  confirmedAt: string | null;
  rejectedAt: string | null;
  rejectReason: string | null;
  /** Whether the auto-confirm day confirmed it (the buyer did not); null on a rejection. */
  autoConfirmed: boolean | null;
}

/** The webhook body of escrow.confirmed: the buyer has the goods (or the auto-confirm day passed); the payout is scheduled. */
export interface EscrowConfirmedEvent {
  id: string;
  type: 'escrow.confirmed';
  createdAt: string;
  data: EscrowOutcome<'confirmed'> & {
    confirmedAt: string;
    rejectedAt: null;
    rejectReason: null;
    autoConfirmed: boolean;
  };
}

/** The webhook body of escrow.rejected: the buyer refused the goods; the payout stays held. */
export interface EscrowRejectedEvent {
  id: string;
  type: 'escrow.rejected';
  createdAt: string;
  data: EscrowOutcome<'rejected'> & {
    confirmedAt: null;
    rejectedAt: string;
    rejectReason: string;
    autoConfirmed: null;
  };
}

export type EscrowEvent = EscrowConfirmedEvent | EscrowRejectedEvent;

/** Every webhook body an endpoint can receive (it gets a type only when it enabled it). */
export type WebhookEvent = PaymentEvent | RefundEvent | CashReceiptEvent | EscrowEvent;

/** Every event type, as an endpoint's `enabledEvents` names them. */
export type EventType = WebhookEvent['type'];

/** A webhook endpoint of /v1/webhook-endpoints: up to 16 per mode, each with its own secret and health. */
export interface WebhookEndpoint {
  id: string;
  url: string;
  description: string | null;
  enabledEvents: EventType[];
  signingSecret: string;
  livemode: boolean;
  status: 'enabled' | 'disabled';
  failingSince: string | null;
  consecutiveFailures: number;
  lastError: string | null;
  disabledAt: string | null;
  createdAt: string;
}

/** A refund (POST /v1/payments/{id}/refunds, GET /v1/refunds/{id}); the refund account is never echoed. */
export interface RefundView {
  id: string;
  paymentId: string;
  orderId: string;
  amount: number;
  currency: 'KRW';
  reason: string | null;
  status: 'pending' | 'succeeded' | 'failed';
  livemode: boolean;
  createdAt: string;
  succeededAt: string | null;
  failedAt: string | null;
  failureReason: string | null;
  /** Its part exempt from VAT (면세): as you asked, or its share of the payment's tax-free amount not yet refunded. */
  taxFreeAmount: number;
  /** Fixed when it succeeds, so that a fully refunded payment's refunds add up to its `vat`; null until then. */
  vat: number | null;
  /** Its taxable part (amount − taxFreeAmount) less its `vat` (공급가액); null until it succeeds. */
  suppliedAmount: number | null;
  /** Your own keys, as the refund request gave them; `{}` when none. */
  metadata: Metadata;
}

/** A `payhook listen` session: an ephemeral endpoint of the test mode with its own signing secret. */
export interface ListenSession {
  id: string;
  livemode: false;
  /** Null: every event type. */
  enabledEvents: EventType[] | null;
  status: 'open' | 'ended';
  createdAt: string;
  endedAt: string | null;
}

/** The answer to POST /v1/listen-sessions: the only one that carries the session's secret. */
export interface CreatedListenSession extends ListenSession {
  signingSecret: string;
}

/** One delivery attempt of an event, to an endpoint (we_…) or by a listen session (lsn_…). */
export interface WebhookAttempt {
  id: string;
  endpointId: string | null;
  number: number;
  startedAt: string;
  durationMs: number;
  responseStatus: number | null;
  responseBody: string | null;
  error: string | null;
}

/** How an event's deliveries stand, summed up over the endpoints that take its type. */
export interface EventDelivery {
  livemode: boolean;
  deliveryStatus: 'pending' | 'succeeded' | 'failed' | 'skipped';
  undeliveredReason: string | null;
}

/** What an event owes one endpoint that takes its type. */
export interface EndpointDelivery {
  endpointId: string;
  status: 'pending' | 'succeeded' | 'failed';
  undeliveredReason: string | null;
}

/** An event as GET /v1/events lists it: the webhook body and how its deliveries stand. */
export type EventSummary = WebhookEvent & EventDelivery;

/** One event (GET /v1/events/{id}) with what it owes each endpoint and every attempt made. */
export type EventView = EventSummary & { deliveries: EndpointDelivery[]; attempts: WebhookAttempt[] };

/** The answer to POST /v1/events/{id}/redeliver. */
export interface EventRedelivery {
  eventId: string;
  status: 'queued';
}

/** The answer to POST /v1/events/recover: how many failed deliveries are queued again. */
export interface EventsRecovery {
  since: string;
  queued: number;
}

/** One settlement record (GET /v1/settlements): a completed payment, or a refund with negative amounts. */
export interface Settlement {
  type: 'payment' | 'refund';
  paymentId: string;
  refundId: string | null;
  orderId: string;
  livemode: boolean;
  currency: 'KRW';
  grossAmount: number;
  feeBps: number;
  feeAmount: number;
  vatAmount: number;
  netAmount: number;
  salesDate: string;
  /** `held` while the payment's escrow is not confirmed (payoutDate and payoutRule null), else `scheduled`. */
  payoutStatus: 'scheduled' | 'held';
  payoutDate: string | null;
  payoutRule: 'kr_public_holidays' | 'weekdays_only' | null;
  completedAt: string;
}

/** An integration test run (POST /v1/integration-tests, GET /v1/integration-tests/{id}). */
export interface IntegrationTest {
  id: string;
  status: 'running' | 'passed' | 'failed';
  scenarios: {
    name: 'completion' | 'retries' | 'duplicates' | 'review';
    status: 'pending' | 'running' | 'passed' | 'failed';
    detail: string;
  }[];
  startedAt: string;
  finishedAt: string | null;
}

/** The answer to POST /v1/integration-tests: the run started; read it with its id. */
export interface IntegrationTestStarted {
  id: string;
  status: 'running';
}

/** A bank transfer received (test mode: made by POST /v1/test-helpers/deposits or …/payments/{id}/deposit). */
export interface Deposit {
  id: string;
  livemode: boolean;
  bankTransactionId: string;
  amount: number;
  depositCode: string | null;
  depositorName: string;
  receivedAt: string;
  outcome: 'matched' | 'review';
  paymentId: string | null;
  reviewCaseId: string | null;
  reviewReason: string | null;
  createdAt: string;
}

/** A test voucher with its PIN (POST /v1/test-helpers/vouchers): the one time the PIN is shown. */
export interface TestVoucher {
  id: string;
  livemode: boolean;
  kind: 'culture' | 'book';
  faceValue: number;
  pinLast4: string;
  status: 'available' | 'held' | 'redeemed';
  paymentId: string | null;
  pin: string;
}

/** The mode's first webhook endpoint, as the singular /v1/webhook-endpoint shows it (no id). */
export interface ModeWebhookEndpoint {
  url: string;
  signingSecret: string;
  livemode: boolean;
  enabledEvents: EventType[];
  status: 'enabled' | 'disabled';
  failingSince: string | null;
  consecutiveFailures: number;
  lastError: string | null;
  disabledAt: string | null;
}

/** The headers of a webhook delivery. */
export const WEBHOOK_HEADERS = {
  eventId: 'Service-Event-Id',
  signature: 'Service-Signature',
  /** Standard Webhooks: the event id, the `t` of Service-Signature, `v1,<base64>` per valid secret. */
  webhookId: 'webhook-id',
  webhookTimestamp: 'webhook-timestamp',
  webhookSignature: 'webhook-signature',
} as const;

export const ID_PREFIXES = { payment: 'pay_', event: 'evt_', refund: 'rfd_', cashReceipt: 'crc_' } as const;
const ID_PATTERN = /^[a-z]{3}_[0-9A-Za-z]{20,64}$/;

/** True when `value` has the shape of a payhook id of this kind. */
export function isIdOf(kind: keyof typeof ID_PREFIXES, value: string): boolean {
  return value.startsWith(ID_PREFIXES[kind]) && ID_PATTERN.test(value);
}
