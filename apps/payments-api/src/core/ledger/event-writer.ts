import {
  DEFAULT_ENABLED_EVENTS,
  newId,
  type CashReceiptEvent,
  type EscrowEvent,
  type EventType,
  type PaymentEvent,
  type RefundEvent,
} from '@payhook/contracts';
import { toCashReceiptView, type CashReceiptRecord } from './cash-receipt-record';
import { jsonRecords, type Sql } from '@payhook/persistence';
import { firstDeliveriesOutboxSql } from './outbox-writer';
import type { PaymentOutcome } from './moves-table';
import type { PaymentRecord } from './payment-record';
import type { RefundRecord } from './refund-record';

/** An events row: its body's bytes are fixed here and sent unchanged in every attempt. */
export interface NewEvent {
  id: string;
  merchantId: string;
  livemode: boolean;
  type: EventType;
  paymentId: string;
  /** The refund a refund.* event announces (or a cancel receipt takes back); null for payment events. */
  refundId: string | null;
  /** The receipt a cash_receipt.* event announces; null for the others. */
  cashReceiptId: string | null;
  body: string;
  createdAt: Date;
}

// Every event type the payments-api writes is built in this file: payment.*, refund.*, cash_receipt.* and escrow.*.

/**
 * The webhook body announcing that `payment` left `pending` for `outcome` at `at`.
 * payment.completed keeps exactly its original `data`; the other outcomes carry the status and
 * their own instant.
 */
export function paymentOutcomeEvent(payment: PaymentRecord, outcome: PaymentOutcome, at: Date): PaymentEvent {
  const id = newId('event');
  const createdAt = at.toISOString();
  const { id: paymentId, orderId, amount, currency } = payment;
  switch (outcome) {
    case 'completed':
      return {
        id,
        type: 'payment.completed',
        createdAt,
        data: { paymentId, orderId, amount, currency, completedAt: createdAt },
      };
    case 'failed':
      return {
        id,
        type: 'payment.failed',
        createdAt,
        data: { paymentId, orderId, amount, currency, status: outcome, failedAt: createdAt },
      };
    case 'canceled':
      return {
        id,
        type: 'payment.canceled',
        createdAt,
        data: { paymentId, orderId, amount, currency, status: outcome, canceledAt: createdAt },
      };
    case 'expired':
      return {
        id,
        type: 'payment.expired',
        createdAt,
        data: { paymentId, orderId, amount, currency, status: outcome, expiredAt: createdAt },
      };
  }
}

/** The events row of a payment's event, or of its escrow's. */
export function toNewEvent(payment: PaymentRecord, event: PaymentEvent | EscrowEvent): NewEvent {
  return {
    id: event.id,
    merchantId: payment.merchantId,
    livemode: payment.livemode,
    type: event.type,
    paymentId: payment.id,
    refundId: null,
    cashReceiptId: null,
    body: JSON.stringify(event),
    createdAt: new Date(event.createdAt),
  };
}

/**
 * The webhook body announcing that `refund` ended: refund.succeeded at its
 * succeededAt, refund.failed at its failedAt. Only a refund that has ended has an event.
 */
export function refundOutcomeEvent(refund: RefundRecord): RefundEvent {
  const { id: refundId, paymentId, orderId, amount, currency, reason } = refund;
  const outcome = { refundId, paymentId, orderId, amount, currency, reason };
  if (refund.status === 'succeeded' && refund.succeededAt) {
    const at = refund.succeededAt.toISOString();
    return {
      id: newId('event'),
      type: 'refund.succeeded',
      createdAt: at,
      data: { ...outcome, status: 'succeeded', succeededAt: at },
    };
  }
  if (refund.status === 'failed' && refund.failedAt) {
    const at = refund.failedAt.toISOString();
    return {
      id: newId('event'),
      type: 'refund.failed',
      createdAt: at,
      data: { ...outcome, status: 'failed', failedAt: at },
    };
  }
  throw new Error(`refund ${refund.id} is ${refund.status}: no event announces it yet`);
}

/** The events row of a refund's event: listed with its payment's other events. */
export function toNewRefundEvent(refund: RefundRecord, event: RefundEvent): NewEvent {
  return {
    id: event.id,
    merchantId: refund.merchantId,
    livemode: refund.livemode,
    type: event.type,
    paymentId: refund.paymentId,
    refundId: refund.id,
    cashReceiptId: null,
    body: JSON.stringify(event),
    createdAt: new Date(event.createdAt),
  };
}

/**
 * The webhook body announcing that `receipt` was issued or failed, at that instant, `data` the
 * receipt as the merchant API shows it (the buyer's number masked). A pending receipt has no event.
 */
export function cashReceiptOutcomeEvent(receipt: CashReceiptRecord): CashReceiptEvent {
  const data = toCashReceiptView(receipt);
  if (receipt.status === 'issued' && receipt.issuedAt && receipt.issueNumber) {
    const at = receipt.issuedAt.toISOString();
    return {
      id: newId('event'),
      type: 'cash_receipt.issued',
      createdAt: at,
      data: { ...data, status: 'issued', issueNumber: receipt.issueNumber, issuedAt: at },
    };
  }
  if (receipt.status === 'failed' && receipt.failedAt && receipt.failureReason) {
    const at = receipt.failedAt.toISOString();
    return {
      id: newId('event'),
      type: 'cash_receipt.failed',
      createdAt: at,
      data: { ...data, status: 'failed', failureReason: receipt.failureReason, failedAt: at },
    };
  }
  throw new Error(`cash receipt ${receipt.id} is ${receipt.status}: no event announces it yet`);
}

/** The events row of a receipt's event: listed with its payment's other events. */
export function toNewCashReceiptEvent(receipt: CashReceiptRecord): NewEvent {
  const event = cashReceiptOutcomeEvent(receipt);
  return {
    id: event.id,
    merchantId: receipt.merchantId,
    livemode: receipt.livemode,
    type: event.type,
    paymentId: receipt.paymentId,
    refundId: receipt.refundId,
    cashReceiptId: receipt.id,
    body: JSON.stringify(event),
    createdAt: new Date(event.createdAt),
  };
}

/**
 * The webhook body announcing that `payment`'s escrow closed: escrow.confirmed at its confirmedAt,
 * escrow.rejected at its rejectedAt. An escrow still open has no event.
 */
export function escrowOutcomeEvent(payment: PaymentRecord): EscrowEvent {
  const { id: paymentId, orderId, amount, currency, escrow } = payment;
  const on = { paymentId, orderId, amount, currency };
  if (escrow?.status === 'confirmed' && escrow.confirmedAt && escrow.autoConfirmed !== null) {
    const at = escrow.confirmedAt.toISOString();
    return {
      id: newId('event'),
      type: 'escrow.confirmed',
      createdAt: at,
      data: {
        ...on,
        status: 'confirmed',
        confirmedAt: at,
        rejectedAt: null,
        rejectReason: null,
        autoConfirmed: escrow.autoConfirmed,
      },
    };
  }
  if (escrow?.status === 'rejected' && escrow.rejectedAt && escrow.rejectReason !== null) {
    const at = escrow.rejectedAt.toISOString();
    return {
      id: newId('event'),
      type: 'escrow.rejected',
      createdAt: at,
      data: {
        ...on,
        status: 'rejected',
        confirmedAt: null,
        rejectedAt: at,
        rejectReason: escrow.rejectReason,
        autoConfirmed: null,
      },
    };
  }
  throw new Error(`payment ${paymentId}'s escrow is ${escrow?.status ?? 'absent'}: no event announces it yet`);
}

/** Why an event of a mode without any endpoint was not sent: kept, redelivered once one is set. */
const NO_ENDPOINT_REASON = 'No webhook endpoint is set for this mode; set one and redeliver the event.';

/**
 * The endpoints of an event's mode as its delivery state needs them, for a statement that selects
 * `event` (type, merchant_id, livemode): `endpoints.taken` (some endpoint takes the type) and
 * `endpoints.any`. A bounded read: a mode has at most 16 endpoints (webhook_endpoints_scope_idx).
 */
const endpointsOfEventSql = (event: string) =>
  `CROSS JOIN LATERAL (SELECT bool_or(${event}.type = ANY (w.enabled_events)) AS taken, count(*) > 0 AS any
                      FROM webhook_endpoints w
                      WHERE w.merchant_id = ${event}.merchant_id AND w.livemode = ${event}.livemode) endpoints`;

/**
 * The event's own delivery_status and undelivered_reason as it is inserted (after endpointsOfEventSql).
 * An event that some endpoint takes has its state in its deliveries (this says pending); one that none
 * takes is skipped; in a mode with no endpoint at all, a type of `defaults` (DEFAULT_ENABLED_EVENTS,
 * what a new endpoint takes) fails at once with NO_ENDPOINT_REASON, any other is skipped.
 */
const initialDeliverySql = (event: string, defaults: string, reason: string) =>
  `CASE WHEN endpoints.taken THEN 'pending'
        WHEN endpoints.any OR NOT ${event}.type = ANY (${defaults}::text[]) THEN 'skipped' ELSE 'failed' END,
   CASE WHEN NOT endpoints.any AND ${event}.type = ANY (${defaults}::text[]) THEN ${reason} END`;

/**
 * The fan-out: for events just inserted (`inserted`: id, type, merchant_id, livemode,
 * created_at), one pending delivery per endpoint of the mode that takes the type, and only those: an
 * endpoint that does not take it costs no row. Returns the (event_id, endpoint_id) of each. Each event
 * reads its own mode's endpoints by the index, whatever the planner guesses of the events' count: it
 * takes json_to_recordset for 100 rows, and with a plain join hashed every merchant's endpoints instead.
 * (OFFSET 0 keeps the LATERAL subquery from being flattened into such a join.)
 */
const fanOutSql = (inserted: string) =>
  `INSERT INTO webhook_deliveries (event_id, endpoint_id, merchant_id, livemode, status, created_at)
   SELECT ev.id, w.id, ev.merchant_id, ev.livemode, 'pending', ev.created_at
   FROM ${inserted} ev
   CROSS JOIN LATERAL (SELECT w.id FROM webhook_endpoints w
                       WHERE w.merchant_id = ev.merchant_id AND w.livemode = ev.livemode
                         AND ev.type = ANY (w.enabled_events) OFFSET 0) w
   RETURNING event_id, endpoint_id`;

/** Writes events and the deliveries they owe, inside the transaction of the change they announce. */
export class EventWriter {
  constructor(private readonly sql: Sql) {}

  /**
   * Each event gets a delivery and its outbox row per endpoint of its mode that takes its type; an
   * event that no endpoint takes is recorded without one (initialDeliverySql says why). One statement,
   * so one round trip, for every money move's events: the outbox rows are selected from the fan-out.
   */
  async record(events: readonly NewEvent[]): Promise<void> {
    if (events.length === 0) return;
    const outbox = firstDeliveriesOutboxSql('delivered', 4);
    await this.sql(
      `WITH inserted AS (
         INSERT INTO events (id, merchant_id, livemode, type, payment_id, refund_id, cash_receipt_id, body, created_at,
                             delivery_status, undelivered_reason)
         SELECT e.id, e.merchant_id, e.livemode, e.type, e.payment_id, e.refund_id, e.cash_receipt_id, e.body, e.created_at,
                ${initialDeliverySql('e', '$2', '$3')}
         FROM (SELECT id, "merchantId" AS merchant_id, livemode, type, "paymentId" AS payment_id, "refundId" AS refund_id,
                      "cashReceiptId" AS cash_receipt_id, body, "createdAt" AS created_at
               FROM json_to_recordset($1::json)
                      AS r (id text, "merchantId" text, livemode boolean, type text, "paymentId" text, "refundId" text,
                            "cashReceiptId" text, body text, "createdAt" timestamptz)) e
         ${endpointsOfEventSql('e')}
         RETURNING id, type, merchant_id, livemode, created_at
       ), delivered AS (
         ${fanOutSql('inserted')}
       )
       ${outbox.sql}`,
      [jsonRecords(events), DEFAULT_ENABLED_EVENTS, NO_ENDPOINT_REASON, ...outbox.params],
      'record-events',
    );
  }
}
