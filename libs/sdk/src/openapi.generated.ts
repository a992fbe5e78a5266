/* Generated from docs/openapi.json by scripts/openapi-types.mjs (npm run openapi): do not edit. */

/**
 * A webhook body, as signed and sent; headers and verification: docs/merchant-guide.md, Webhooks.
 */
export type PaymentEvent = PaymentCompletedEvent | PaymentFailedEvent | PaymentCanceledEvent | PaymentExpiredEvent;
/**
 * Any webhook body: a payment outcome, a refund outcome, a cash receipt outcome or an escrow outcome.
 */
export type WebhookEvent =
  | PaymentEvent
  | RefundSucceededEvent
  | RefundFailedEvent
  | CashReceiptIssuedEvent
  | CashReceiptFailedEvent
  | EscrowConfirmedEvent
  | EscrowRejectedEvent;
export type EventSummary = WebhookEvent & EventDelivery;
export type Event = EventSummary & {
  deliveries: EndpointDelivery[];
  attempts: WebhookAttempt[];
};

/**
 * Every component schema of docs/openapi.json by name.
 */
export interface OpenApiSchemas {
  CashReceiptRequestDto: CashReceiptRequestDto;
  EscrowRequestDto: EscrowRequestDto;
  CreatePaymentRequestDto: CreatePaymentRequestDto;
  RefundAccountDto: RefundAccountDto;
  CreateRefundRequestDto: CreateRefundRequestDto;
  FailedTestRefundRequestDto: FailedTestRefundRequestDto;
  ShipmentRequestDto: ShipmentRequestDto;
  RejectEscrowRequestDto: RejectEscrowRequestDto;
  PutWebhookEndpointRequestDto: PutWebhookEndpointRequestDto;
  RotateSecretRequestDto: RotateSecretRequestDto;
  CreateWebhookEndpointRequestDto: CreateWebhookEndpointRequestDto;
  UpdateWebhookEndpointRequestDto: UpdateWebhookEndpointRequestDto;
  RecoverEventsRequestDto: RecoverEventsRequestDto;
  RedeliverEventRequestDto: RedeliverEventRequestDto;
  CreateListenSessionRequestDto: CreateListenSessionRequestDto;
  ReportListenAttemptRequestDto: ReportListenAttemptRequestDto;
  TestDepositRequestDto: TestDepositRequestDto;
  TestPaymentDepositRequestDto: TestPaymentDepositRequestDto;
  IssueTestVoucherRequestDto: IssueTestVoucherRequestDto;
  Error: Error;
  Escrow: Escrow;
  CreatedPayment: CreatedPayment;
  Payment: Payment;
  Refund: Refund;
  CashReceipt: CashReceipt;
  PaymentCompletedEvent: PaymentCompletedEvent;
  PaymentFailedEvent: PaymentFailedEvent;
  PaymentCanceledEvent: PaymentCanceledEvent;
  PaymentExpiredEvent: PaymentExpiredEvent;
  PaymentEvent: PaymentEvent;
  WebhookAttempt: WebhookAttempt;
  EventDelivery: EventDelivery;
  RefundSucceededEvent: RefundSucceededEvent;
  RefundFailedEvent: RefundFailedEvent;
  CashReceiptIssuedEvent: CashReceiptIssuedEvent;
  CashReceiptFailedEvent: CashReceiptFailedEvent;
  EscrowConfirmedEvent: EscrowConfirmedEvent;
  EscrowRejectedEvent: EscrowRejectedEvent;
  WebhookEvent: WebhookEvent;
  EndpointDelivery: EndpointDelivery;
  EventSummary: EventSummary;
  Event: Event;
  EventRedelivery: EventRedelivery;
  EventsRecovery: EventsRecovery;
  Settlement: Settlement;
  Deposit: Deposit;
  IntegrationTest: IntegrationTest;
  IntegrationTestStarted: IntegrationTestStarted;
  TestVoucher: TestVoucher;
  WebhookEndpoint: WebhookEndpoint;
  ListenSession: ListenSession;
  CreatedListenSession: CreatedListenSession;
  WebhookEndpointResource: WebhookEndpointResource;
}
export interface CashReceiptRequestDto {
  /**
   * income_deduction (소득공제, a person) or expense_proof (지출증빙, a business)
   */
  type: 'income_deduction' | 'expense_proof';
  /**
   * income_deduction: a mobile number (10 or 11 digits starting 01) or a cash receipt card number (13 to 19 digits); expense_proof: a business registration number (10 digits) or a cash receipt card number (13 to 19 digits). Hyphens and spaces are ignored. Shown back masked, every digit but the last four as *.
   */
  identityNumber: string;
}
export interface EscrowRequestDto {
  /**
   * where the buyer's confirmation link goes at the first shipment; never shown back
   */
  buyerEmail: string;
}
export interface CreatePaymentRequestDto {
  orderId: string;
  /**
   * printable Unicode
   */
  customerId: string;
  /**
   * whole KRW
   */
  amount: number;
  currency: 'KRW';
  returnUrl: string;
  /**
   * whole KRW, 0 to amount: the part exempt from VAT (면세), such as books or fresh food
   */
  taxFreeAmount?: number;
  /**
   * your own keys, shown on the payment's reads: an object of at most 20 keys, each 1 to 40 of A-Z a-z 0-9 _ . -, with string values of 0 to 500 printable characters
   */
  metadata?: {
    [k: string]: string;
  };
  /**
   * a cash receipt (현금영수증) asked for by the buyer: made when the payment completes; the number is never shown back whole
   */
  cashReceipt?: CashReceiptRequestDto;
  /**
   * escrow (구매안전서비스): the payout waits until the buyer confirms the goods arrived; the buyer's address is never shown back
   */
  escrow?: EscrowRequestDto;
}
export interface RefundAccountDto {
  /**
   * printable Unicode
   */
  bank: string;
  /**
   * printable Unicode
   */
  accountNumber: string;
  /**
   * printable Unicode
   */
  holderName: string;
}
export interface CreateRefundRequestDto {
  /**
   * whole KRW, at most the refundable remainder (more: 409 refund_amount_exceeded); omitted: the whole remainder
   */
  amount?: number;
  reason?: string;
  /**
   * whole KRW: the refund's part exempt from VAT (면세), from 0 to its amount, at most the payment's tax-free amount not yet refunded, and leaving a taxable part (amount − taxFreeAmount) of at most the taxable amount not yet refunded ("not yet refunded": less succeeded and pending refunds); else 400 parameter_invalid. Omitted: ⌊amount × F / A⌋, with A and F the payment's amount and tax-free amount not yet refunded
   */
  taxFreeAmount?: number;
  /**
   * your own keys, shown on the refund's reads: an object of at most 20 keys, each 1 to 40 of A-Z a-z 0-9 _ . -, with string values of 0 to 500 printable characters
   */
  metadata?: {
    [k: string]: string;
  };
  /**
   * required for live refunds
   */
  refundAccount?: RefundAccountDto;
}
export interface FailedTestRefundRequestDto {
  /**
   * whole KRW, at most the refundable remainder; omitted: the whole remainder
   */
  amount?: number;
  reason?: string;
  /**
   * whole KRW: the refund's part exempt from VAT (면세), from 0 to its amount, at most the payment's tax-free amount not yet refunded, and leaving a taxable part (amount − taxFreeAmount) of at most the taxable amount not yet refunded ("not yet refunded": less succeeded and pending refunds); else 400 parameter_invalid. Omitted: ⌊amount × F / A⌋, with A and F the payment's amount and tax-free amount not yet refunded
   */
  taxFreeAmount?: number;
  /**
   * your own keys, shown on the refund's reads: an object of at most 20 keys, each 1 to 40 of A-Z a-z 0-9 _ . -, with string values of 0 to 500 printable characters
   */
  metadata?: {
    [k: string]: string;
  };
}
export interface ShipmentRequestDto {
  /**
   * printable Unicode
   */
  carrier: string;
  /**
   * printable Unicode
   */
  trackingNumber: string;
}
export interface RejectEscrowRequestDto {
  reason: string;
}
export interface PutWebhookEndpointRequestDto {
  url: string;
  /**
   * default ["payment.completed"]; left out, an existing endpoint keeps its own
   */
  enabledEvents?: (
    | 'payment.completed'
    | 'payment.failed'
    | 'payment.canceled'
    | 'payment.expired'
    | 'refund.succeeded'
    | 'refund.failed'
    | 'cash_receipt.issued'
    | 'cash_receipt.failed'
    | 'escrow.confirmed'
    | 'escrow.rejected'
  )[];
}
export interface RotateSecretRequestDto {
  /**
   * Seconds the current secret keeps signing the webhook-signature header beside the new one (0: it stops at once). Service-Signature is signed with the new secret only.
   */
  previousSecretExpiresIn?: number;
}
export interface CreateWebhookEndpointRequestDto {
  url: string;
  /**
   * default ["payment.completed"]
   */
  enabledEvents?: (
    | 'payment.completed'
    | 'payment.failed'
    | 'payment.canceled'
    | 'payment.expired'
    | 'refund.succeeded'
    | 'refund.failed'
    | 'cash_receipt.issued'
    | 'cash_receipt.failed'
    | 'escrow.confirmed'
    | 'escrow.rejected'
  )[];
  description?: string | null;
}
export interface UpdateWebhookEndpointRequestDto {
  url?: string;
  /**
   * left out, the endpoint keeps its own
   */
  enabledEvents?: (
    | 'payment.completed'
    | 'payment.failed'
    | 'payment.canceled'
    | 'payment.expired'
    | 'refund.succeeded'
    | 'refund.failed'
    | 'cash_receipt.issued'
    | 'cash_receipt.failed'
    | 'escrow.confirmed'
    | 'escrow.rejected'
  )[];
  description?: string | null;
}
export interface RecoverEventsRequestDto {
  /**
   * an instant within the last 30 days
   */
  since: string;
  /**
   * only this endpoint's failed deliveries
   */
  endpointId?: string;
}
export interface RedeliverEventRequestDto {
  /**
   * only this endpoint; without it, every endpoint that takes the type (or the oldest one)
   */
  endpointId?: string;
}
export interface CreateListenSessionRequestDto {
  /**
   * the event types streamed to the session; left out, every type of the mode
   */
  enabledEvents?: (
    | 'payment.completed'
    | 'payment.failed'
    | 'payment.canceled'
    | 'payment.expired'
    | 'refund.succeeded'
    | 'refund.failed'
    | 'cash_receipt.issued'
    | 'cash_receipt.failed'
    | 'escrow.confirmed'
    | 'escrow.rejected'
  )[];
}
export interface ReportListenAttemptRequestDto {
  eventId: string;
  responseStatus?: number | null;
  responseBody?: string | null;
  error?: string | null;
  durationMs: number;
}
export interface TestDepositRequestDto {
  /**
   * whole KRW
   */
  amount: number;
  /**
   * the code the payer typed, as the bank reports it
   */
  depositCode?: string;
  depositorName?: string;
  /**
   * generated when left out
   */
  bankTransactionId?: string;
}
export interface TestPaymentDepositRequestDto {
  /**
   * whole KRW; what is still due when left out
   */
  amount?: number;
}
export interface IssueTestVoucherRequestDto {
  /**
   * whole KRW
   */
  faceValue: number;
  kind?: 'culture' | 'book';
}
/**
 * The one error shape of every error response; the codes and when each comes: docs/merchant-guide.md, Errors.
 */
export interface Error {
  error: {
    type: string;
    code:
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
    message: string;
    /**
     * the request field, header or parameter at fault
     */
    param?: string;
    requestId: string;
  };
}
/**
 * the buyer's e-mail address is never shown
 */
export interface Escrow {
  /**
   * awaiting_shipment until the merchant ships; shipped until the buyer confirms or rejects (or autoConfirmAt passes)
   */
  status: 'awaiting_shipment' | 'shipped' | 'confirmed' | 'rejected';
  carrier: string | null;
  trackingNumber: string | null;
  shippedAt: string | null;
  /**
   * 00:00 Asia/Seoul of the day a shipped escrow confirms by itself
   */
  autoConfirmAt: string | null;
  confirmedAt: string | null;
  rejectedAt: string | null;
  rejectReason: string | null;
}
export interface CreatedPayment {
  id: string;
  orderId: string;
  /**
   * whole KRW
   */
  amount: number;
  currency: 'KRW';
  status: 'pending' | 'completed' | 'failed' | 'canceled' | 'expired';
  payUrl: string;
  expiresAt: string;
}
export interface Payment {
  id: string;
  orderId: string;
  /**
   * whole KRW
   */
  amount: number;
  currency: 'KRW';
  status: 'pending' | 'completed' | 'failed' | 'canceled' | 'expired';
  payUrl: string;
  expiresAt: string;
  createdAt: string;
  completedAt: string | null;
  livemode: boolean;
  /**
   * the sum of succeeded refunds, whole KRW
   */
  refundedAmount: number;
  /**
   * the part exempt from VAT (면세), 0 to amount
   */
  taxFreeAmount: number;
  /**
   * VAT inside the taxable part (amount − taxFreeAmount): ⌊(taxable + 5) / 11⌋
   */
  vat: number;
  /**
   * the taxable part less its VAT (공급가액)
   */
  suppliedAmount: number;
  /**
   * the merchant's own keys, as given; {} when none
   */
  metadata: {
    [k: string]: string;
  };
  /**
   * the escrow (구매안전서비스) of a payment created with one; null for any other
   */
  escrow: Escrow | null;
}
export interface Refund {
  id: string;
  paymentId: string;
  orderId: string;
  /**
   * whole KRW
   */
  amount: number;
  currency: 'KRW';
  reason: string | null;
  status: 'pending' | 'succeeded' | 'failed';
  livemode: boolean;
  createdAt: string;
  succeededAt: string | null;
  failedAt: string | null;
  failureReason: string | null;
  /**
   * the refund's part exempt from VAT (면세): as asked, or its share of the payment's tax-free amount not yet refunded
   */
  taxFreeAmount: number;
  /**
   * fixed when the refund succeeds, by running totals: VAT(P − T₀) − VAT(P − T₁), P the payment's taxable amount, T₀ and T₁ the taxable parts refunded before and with this one; null while pending or failed
   */
  vat: number | null;
  /**
   * its taxable part (amount − taxFreeAmount) less its vat (공급가액); null while pending or failed
   */
  suppliedAmount: number | null;
  /**
   * the merchant's own keys, as the refund request gave them; {} when none
   */
  metadata: {
    [k: string]: string;
  };
}
export interface CashReceipt {
  id: string;
  paymentId: string;
  /**
   * the refund a cancel receipt takes back; null on an issue receipt
   */
  refundId: string | null;
  orderId: string;
  /**
   * issue: what the buyer paid and was not refunded when it was made; cancel: one succeeded refund
   */
  transactionType: 'issue' | 'cancel';
  /**
   * income_deduction (소득공제) or expense_proof (지출증빙)
   */
  type: 'income_deduction' | 'expense_proof';
  /**
   * the buyer's number, every digit but the last four as *
   */
  identityNumber: string;
  /**
   * issued unasked to the tax office's own number 0100001234 (a merchant marked cashReceiptRequired)
   */
  selfIssued: boolean;
  /**
   * whole KRW
   */
  amount: number;
  taxFreeAmount: number;
  vat: number;
  suppliedAmount: number;
  /**
   * pending until the tax office answers (at once in test mode)
   */
  status: 'pending' | 'issued' | 'failed';
  /**
   * the tax office's approval number; null until issued
   */
  issueNumber: string | null;
  failureReason: string | null;
  livemode: boolean;
  createdAt: string;
  issuedAt: string | null;
  failedAt: string | null;
}
export interface PaymentCompletedEvent {
  id: string;
  type: 'payment.completed';
  createdAt: string;
  data: {
    paymentId: string;
    orderId: string;
    /**
     * whole KRW
     */
    amount: number;
    currency: 'KRW';
    completedAt: string;
  };
}
export interface PaymentFailedEvent {
  id: string;
  type: 'payment.failed';
  createdAt: string;
  data: {
    paymentId: string;
    orderId: string;
    /**
     * whole KRW
     */
    amount: number;
    currency: 'KRW';
    status: 'failed';
    failedAt: string;
  };
}
export interface PaymentCanceledEvent {
  id: string;
  type: 'payment.canceled';
  createdAt: string;
  data: {
    paymentId: string;
    orderId: string;
    /**
     * whole KRW
     */
    amount: number;
    currency: 'KRW';
    status: 'canceled';
    canceledAt: string;
  };
}
export interface PaymentExpiredEvent {
  id: string;
  type: 'payment.expired';
  createdAt: string;
  data: {
    paymentId: string;
    orderId: string;
    /**
     * whole KRW
     */
    amount: number;
    currency: 'KRW';
    status: 'expired';
    expiredAt: string;
  };
}
export interface WebhookAttempt {
  id: string;
  /**
   * the endpoint it went to: a we_ endpoint, or the lsn_ listen session (payhook listen) that forwarded it; null before several endpoints
   */
  endpointId: string | null;
  /**
   * numbered per event, across the event's endpoints
   */
  number: number;
  startedAt: string;
  durationMs: number;
  responseStatus: number | null;
  responseBody: string | null;
  error: string | null;
}
export interface EventDelivery {
  livemode: boolean;
  deliveryStatus: 'pending' | 'succeeded' | 'failed' | 'skipped';
  undeliveredReason: string | null;
}
export interface RefundSucceededEvent {
  id: string;
  type: 'refund.succeeded';
  createdAt: string;
  data: {
    refundId: string;
    paymentId: string;
    orderId: string;
    /**
     * whole KRW
     */
    amount: number;
    currency: 'KRW';
    status: 'succeeded';
    reason: string | null;
    succeededAt: string;
  };
}
export interface RefundFailedEvent {
  id: string;
  type: 'refund.failed';
  createdAt: string;
  data: {
    refundId: string;
    paymentId: string;
    orderId: string;
    /**
     * whole KRW
     */
    amount: number;
    currency: 'KRW';
    status: 'failed';
    reason: string | null;
    failedAt: string;
  };
}
/**
 * A cash receipt was issued: data is the receipt, status issued, with the tax office's issueNumber.
 */
export interface CashReceiptIssuedEvent {
  id: string;
  type: 'cash_receipt.issued';
  createdAt: string;
  data: CashReceipt & {
    status: 'issued';
    issueNumber: string;
    issuedAt: string;
  };
}
/**
 * A cash receipt failed: data is the receipt, status failed, with its failureReason; the buyer may ask again.
 */
export interface CashReceiptFailedEvent {
  id: string;
  type: 'cash_receipt.failed';
  createdAt: string;
  data: CashReceipt & {
    status: 'failed';
    failureReason: string;
    failedAt: string;
  };
}
/**
 * An escrow was confirmed, by the buyer or (autoConfirmed) when autoConfirmAt passed: the payment's payout is scheduled.
 */
export interface EscrowConfirmedEvent {
  id: string;
  type: 'escrow.confirmed';
  createdAt: string;
  data: {
    paymentId: string;
    orderId: string;
    /**
     * whole KRW
     */
    amount: number;
    currency: 'KRW';
    status: 'confirmed';
    confirmedAt: string;
    rejectedAt: null;
    rejectReason: null;
    /**
     * true when autoConfirmAt passed without the buyer
     */
    autoConfirmed: boolean;
  };
}
/**
 * An escrow's buyer rejected the goods, with a reason: the payout stays held and the operator reviews the case; refunds work as on any completed payment.
 */
export interface EscrowRejectedEvent {
  id: string;
  type: 'escrow.rejected';
  createdAt: string;
  data: {
    paymentId: string;
    orderId: string;
    /**
     * whole KRW
     */
    amount: number;
    currency: 'KRW';
    status: 'rejected';
    confirmedAt: null;
    rejectedAt: string;
    rejectReason: string;
    autoConfirmed: null;
  };
}
/**
 * What the event owes one endpoint that takes its type; deliveryStatus sums them up.
 */
export interface EndpointDelivery {
  endpointId: string;
  status: 'pending' | 'succeeded' | 'failed';
  undeliveredReason: string | null;
}
/**
 * The event is queued to be sent again; its attempts show what came of it.
 */
export interface EventRedelivery {
  eventId: string;
  status: 'queued';
}
/**
 * How many failed deliveries since `since` the request found and queued to be sent again, oldest first: they turn pending shortly after the answer.
 */
export interface EventsRecovery {
  since: string;
  queued: number;
}
export interface Settlement {
  /**
   * a refund record has negative amounts
   */
  type: 'payment' | 'refund';
  paymentId: string;
  refundId: string | null;
  orderId: string;
  livemode: boolean;
  currency: 'KRW';
  /**
   * whole KRW
   */
  grossAmount: number;
  feeBps: number;
  feeAmount: number;
  vatAmount: number;
  netAmount: number;
  /**
   * the completion date in Asia/Seoul
   */
  salesDate: string;
  /**
   * held: an escrow payment's record waiting for the buyer's confirmation, with no payout date yet
   */
  payoutStatus: 'scheduled' | 'held';
  payoutDate: string | null;
  payoutRule: ('kr_public_holidays' | 'weekdays_only') | null;
  completedAt: string;
}
export interface Deposit {
  id: string;
  livemode: boolean;
  bankTransactionId: string;
  amount: number;
  depositCode: string | null;
  depositorName: string;
  receivedAt: string;
  /**
   * review: a person decides (see reviewCaseId)
   */
  outcome: 'matched' | 'review';
  paymentId: string | null;
  reviewCaseId: string | null;
  reviewReason: string | null;
  createdAt: string;
}
export interface IntegrationTest {
  id: string;
  status: 'running' | 'passed' | 'failed';
  scenarios: {
    name: 'completion' | 'retries' | 'duplicates' | 'review';
    status: 'pending' | 'running' | 'passed' | 'failed';
    /**
     * what was sent and what came back
     */
    detail: string;
  }[];
  startedAt: string;
  finishedAt: string | null;
}
export interface IntegrationTestStarted {
  id: string;
  status: 'running';
}
/**
 * A test voucher with its PIN: the one time it is shown.
 */
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
export interface WebhookEndpoint {
  url: string;
  signingSecret: string;
  livemode: boolean;
  enabledEvents: (
    | 'payment.completed'
    | 'payment.failed'
    | 'payment.canceled'
    | 'payment.expired'
    | 'refund.succeeded'
    | 'refund.failed'
    | 'cash_receipt.issued'
    | 'cash_receipt.failed'
    | 'escrow.confirmed'
    | 'escrow.rejected'
  )[];
  status: 'enabled' | 'disabled';
  failingSince: string | null;
  consecutiveFailures: number;
  lastError: string | null;
  disabledAt: string | null;
}
export interface ListenSession {
  id: string;
  livemode: false;
  /**
   * null: every type
   */
  enabledEvents:
    | (
        | 'payment.completed'
        | 'payment.failed'
        | 'payment.canceled'
        | 'payment.expired'
        | 'refund.succeeded'
        | 'refund.failed'
        | 'cash_receipt.issued'
        | 'cash_receipt.failed'
        | 'escrow.confirmed'
        | 'escrow.rejected'
      )[]
    | null;
  status: 'open' | 'ended';
  createdAt: string;
  endedAt: string | null;
}
export interface CreatedListenSession {
  id: string;
  livemode: false;
  /**
   * null: every type
   */
  enabledEvents:
    | (
        | 'payment.completed'
        | 'payment.failed'
        | 'payment.canceled'
        | 'payment.expired'
        | 'refund.succeeded'
        | 'refund.failed'
        | 'cash_receipt.issued'
        | 'cash_receipt.failed'
        | 'escrow.confirmed'
        | 'escrow.rejected'
      )[]
    | null;
  status: 'open' | 'ended';
  createdAt: string;
  endedAt: string | null;
  /**
   * signs every event the session's stream sends
   */
  signingSecret: string;
}
export interface WebhookEndpointResource {
  id: string;
  url: string;
  description: string | null;
  enabledEvents: (
    | 'payment.completed'
    | 'payment.failed'
    | 'payment.canceled'
    | 'payment.expired'
    | 'refund.succeeded'
    | 'refund.failed'
    | 'cash_receipt.issued'
    | 'cash_receipt.failed'
    | 'escrow.confirmed'
    | 'escrow.rejected'
  )[];
  signingSecret: string;
  livemode: boolean;
  status: 'enabled' | 'disabled';
  failingSince: string | null;
  consecutiveFailures: number;
  lastError: string | null;
  disabledAt: string | null;
  createdAt: string;
}
