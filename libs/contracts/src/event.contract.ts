import type { CashReceiptView } from './cash-receipt.contract';
import type { EscrowStatus } from './escrow.contract';

/**
 * One event per move out of `pending`, one per refund that succeeds or fails, one per cash receipt
 * issued or failed and one per escrow confirmed or rejected. Also what `enabledEvents` accepts.
 */
export const EVENT_TYPES = [
  'payment.completed',
  'payment.failed',
  'payment.canceled',
  'payment.expired',
  'refund.succeeded',
  'refund.failed',
  'cash_receipt.issued',
  'cash_receipt.failed',
  'escrow.confirmed',
  'escrow.rejected',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** What an endpoint receives when it names no types: what every endpoint received before §8. */
export const DEFAULT_ENABLED_EVENTS: readonly EventType[] = ['payment.completed'];

/** `skipped`: the endpoint had not enabled the event's type; nothing was sent (redeliver sends it). */
export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed', 'skipped'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** The webhook body of payment.completed (spec §6.1); its bytes are fixed at creation. */
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

/** Every webhook body, of every type in EVENT_TYPES: `switch (event.type)` narrows `event.data`. */
export type WebhookEvent = PaymentEvent | RefundEvent | CashReceiptEvent | EscrowEvent;

export interface WebhookAttemptView {
  id: string;
  /** The endpoint the attempt went to (null only for attempts older than several endpoints). */
  endpointId: string | null;
  number: number;
  startedAt: string;
  durationMs: number;
  responseStatus: number | null;
  responseBody: string | null;
  error: string | null;
}

/** What an event owes one endpoint that takes its type: each on its own. */
export interface EndpointDeliveryView {
  endpointId: string;
  status: 'pending' | 'succeeded' | 'failed';
  undeliveredReason: string | null;
}

/** How an event's delivery is going. */
export interface EventDelivery {
  livemode: boolean;
  /** The sum of `deliveries`: skipped with none, succeeded when all did, failed when any failed for good. */
  deliveryStatus: DeliveryStatus;
  /** Why nothing was sent (for example no endpoint for this mode), or null. */
  undeliveredReason: string | null;
  deliveries: EndpointDeliveryView[];
  attempts: WebhookAttemptView[];
}

/** GET /v1/events/{id}: the event plus how its delivery is going. */
export type EventView = WebhookEvent & EventDelivery;

/** The headers of a webhook delivery; libs/signing's deliveryHeaders builds them all. */
export const WEBHOOK_HEADERS = {
  eventId: 'Service-Event-Id',
  signature: 'Service-Signature',
  /** Standard Webhooks: the event id, the `t` of Service-Signature, `v1,<base64>` per secret. */
  webhookId: 'webhook-id',
  webhookTimestamp: 'webhook-timestamp',
  webhookSignature: 'webhook-signature',
} as const;

/** payhook's release, sent in the webhook User-Agent; a unit test keeps it equal to package.json. */
export const PAYHOOK_VERSION = '0.1.0';
export const WEBHOOK_USER_AGENT = `payhook-webhooks/${PAYHOOK_VERSION}`;
