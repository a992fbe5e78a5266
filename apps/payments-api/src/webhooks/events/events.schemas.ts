import { DELIVERY_STATUSES } from '@payhook/contracts';
import { krwAmount } from '../../money/payments';
import { id, instant, nullable, object, ref, text, type Schema } from '../../platform/openapi/schema-builders';

const outcomeData = (status: string, at: string): Schema =>
  object({
    paymentId: { type: 'string' },
    orderId: { type: 'string' },
    amount: krwAmount,
    currency: { const: 'KRW' },
    status: { const: status },
    [at]: instant,
  });

const refundOutcomeData = (status: string, at: string): Schema =>
  object({
    refundId: id('rfd'),
    paymentId: id('pay'),
    orderId: text,
    amount: krwAmount,
    currency: { const: 'KRW' },
    status: { const: status },
    reason: nullable(text),
    [at]: instant,
  });

/** A cash receipt that reached `status`, with the fields that status makes non-null. */
const receiptReached = (status: string, set: Record<string, Schema>): Schema => ({
  allOf: [
    ref('CashReceipt'),
    { type: 'object', properties: { status: { const: status }, ...set }, required: ['status', ...Object.keys(set)] },
  ],
});

/** An escrow that closed with `status`: the instant of that close, reason and auto-confirmation as it makes them. */
const escrowOutcomeData = (status: 'confirmed' | 'rejected'): Schema =>
  object({
    paymentId: id('pay'),
    orderId: text,
    amount: krwAmount,
    currency: { const: 'KRW' },
    status: { const: status },
    confirmedAt: status === 'confirmed' ? instant : { type: 'null' },
    rejectedAt: status === 'rejected' ? instant : { type: 'null' },
    rejectReason: status === 'rejected' ? text : { type: 'null' },
    autoConfirmed:
      status === 'confirmed'
        ? { type: 'boolean', description: 'true when autoConfirmAt passed without the buyer' }
        : { type: 'null' },
  });

/** Open at the top level: Event and EventSummary add their fields and close it (unevaluatedProperties). */
const event = (type: string, data: Schema): Schema => {
  const schema = object({ id: { type: 'string', pattern: '^evt_' }, type: { const: type }, createdAt: instant, data });
  delete schema.additionalProperties;
  return schema;
};

/**
 * The webhook bodies and the events API's shapes, each but the unions and EventDelivery with its
 * example recorded from a real run of payhook: the payment events from a test merchant's payments
 * (completed, failed, canceled, expired), the refund events from a partial test refund and a live
 * refund the operator failed, the cash receipt events from two test payments asked for a receipt at
 * create (one with the failing test number 01000000000), the escrow events from two ₩39,000 test
 * escrow payments, shipped, then confirmed and rejected by the test helpers.
 */
export const EVENT_SCHEMAS: Record<string, Schema> = {
  PaymentCompletedEvent: {
    ...event(
      'payment.completed',
      object({
        paymentId: { type: 'string' },
        orderId: { type: 'string' },
        amount: krwAmount,
        currency: { const: 'KRW' },
        completedAt: instant,
      }),
    ),
    examples: [
      {
        id: 'evt_Wm6Ax4Mobfmd8s3S5oGtn6HM',
        type: 'payment.completed',
        createdAt: '2026-11-24T06:56:19.876Z',
        data: {
          paymentId: 'pay_94BwtvsFTL7PLFYo4gBf7Re1',
          orderId: 'order-1001',
          amount: 15000,
          currency: 'KRW',
          completedAt: '2026-11-24T06:56:19.876Z',
        },
      },
    ],
  },
  PaymentFailedEvent: {
    ...event('payment.failed', outcomeData('failed', 'failedAt')),
    examples: [
      {
        id: 'evt_k7FGNlD11hGWeLPDIN2jHahf',
        type: 'payment.failed',
        createdAt: '2026-11-24T06:56:20.001Z',
        data: {
          paymentId: 'pay_BMdQFme4gH78XIg8rdHTUtXZ',
          orderId: 'order-1003',
          amount: 8000,
          currency: 'KRW',
          status: 'failed',
          failedAt: '2026-11-24T06:56:20.001Z',
        },
      },
    ],
  },
  PaymentCanceledEvent: {
    ...event('payment.canceled', outcomeData('canceled', 'canceledAt')),
    examples: [
      {
        id: 'evt_Hh2Uo73rx09S2XfJcki2Whkt',
        type: 'payment.canceled',
        createdAt: '2026-11-24T06:56:19.977Z',
        data: {
          paymentId: 'pay_RJW6rRK0jioSlaqNOeOqmtht',
          orderId: 'order-1002',
          amount: 8000,
          currency: 'KRW',
          status: 'canceled',
          canceledAt: '2026-11-24T06:56:19.977Z',
        },
      },
    ],
  },
  PaymentExpiredEvent: {
    ...event('payment.expired', outcomeData('expired', 'expiredAt')),
    examples: [
      {
        id: 'evt_sjM1b69k35og5yeOJizyf7eG',
        type: 'payment.expired',
        createdAt: '2026-11-24T06:56:20.011Z',
        data: {
          paymentId: 'pay_dFDhOcqi7x7IT3xYh9nWxVdI',
          orderId: 'order-1004',
          amount: 8000,
          currency: 'KRW',
          status: 'expired',
          expiredAt: '2026-11-24T06:56:20.011Z',
        },
      },
    ],
  },
  PaymentEvent: {
    description: 'A webhook body, as signed and sent; headers and verification: docs/merchant-guide.md, Webhooks.',
    oneOf: ['PaymentCompletedEvent', 'PaymentFailedEvent', 'PaymentCanceledEvent', 'PaymentExpiredEvent'].map(ref),
    discriminator: { propertyName: 'type' },
  },
  // Event, WebhookAttempt and EndpointDelivery: a run with several endpoints (two endpoints of one
  // merchant, a payment completed and delivered to both), its order id written as the other runs'.
  WebhookAttempt: {
    ...object({
      id: { type: 'string', pattern: '^att_' },
      endpointId: {
        ...nullable({ type: 'string', pattern: '^(we|lsn)_' }),
        description:
          'the endpoint it went to: a we_ endpoint, or the lsn_ listen session (payhook listen) that forwarded it; ' +
          'null before several endpoints',
      },
      number: { type: 'integer', minimum: 1, description: "numbered per event, across the event's endpoints" },
      startedAt: instant,
      durationMs: { type: 'integer', minimum: 0 },
      responseStatus: nullable({ type: 'integer' }),
      responseBody: nullable({ type: 'string' }),
      error: nullable({ type: 'string' }),
    }),
    examples: [
      {
        id: 'att_ZwBmX6HnCPMY6lETKdRZFPx2',
        endpointId: 'we_cWx4d81gjQFF7utPa8eGiJkg',
        number: 1,
        startedAt: '2026-11-26T07:47:17.464Z',
        durationMs: 31,
        responseStatus: 200,
        responseBody: 'ok',
        error: null,
      },
    ],
  },
  EventDelivery: {
    type: 'object',
    properties: {
      livemode: { type: 'boolean' },
      deliveryStatus: { enum: [...DELIVERY_STATUSES] },
      undeliveredReason: nullable({ type: 'string' }),
    },
    required: ['livemode', 'deliveryStatus', 'undeliveredReason'],
  },
  RefundSucceededEvent: {
    ...event('refund.succeeded', refundOutcomeData('succeeded', 'succeededAt')),
    examples: [
      {
        id: 'evt_7gILokmX3ZSwxOfoPl3ZY1dx',
        type: 'refund.succeeded',
        createdAt: '2026-11-25T09:56:48.940Z',
        data: {
          refundId: 'rfd_zaJdgJjp7Bg2nGCr9n5vT2Iw',
          paymentId: 'pay_HykHRZNWWQZBkk0blqCgqC1v',
          orderId: 'order-1005',
          amount: 5000,
          currency: 'KRW',
          reason: 'customer returned one item',
          status: 'succeeded',
          succeededAt: '2026-11-25T09:56:48.940Z',
        },
      },
    ],
  },
  RefundFailedEvent: {
    ...event('refund.failed', refundOutcomeData('failed', 'failedAt')),
    examples: [
      {
        id: 'evt_XKFRm5kMVV6dpaXh6bYNWhea',
        type: 'refund.failed',
        createdAt: '2026-11-25T09:56:50.861Z',
        data: {
          refundId: 'rfd_EVtdBAU3LOccdc02TlziJFIp',
          paymentId: 'pay_bcJJYuJkXYikYZiEJ5PQ0fbo',
          orderId: 'order-2002',
          amount: 9000,
          currency: 'KRW',
          reason: 'order canceled by customer',
          status: 'failed',
          failedAt: '2026-11-25T09:56:50.861Z',
        },
      },
    ],
  },
  // The cash receipt events' data is the receipt as GET /v1/cash-receipts/{id} shows it (the cash
  // receipts feature's shape, by name), with what its status makes certain.
  CashReceiptIssuedEvent: {
    ...event('cash_receipt.issued', receiptReached('issued', { issueNumber: text, issuedAt: instant })),
    description: "A cash receipt was issued: data is the receipt, status issued, with the tax office's issueNumber.",
    examples: [
      {
        id: 'evt_tTMSHRK6Q79ZUi8618rG4fIW',
        type: 'cash_receipt.issued',
        createdAt: '2026-11-29T12:58:42.594Z',
        data: {
          id: 'crc_FLHTueZp5uWgCkn8N2N2FQaB',
          paymentId: 'pay_XxU88u1s2SW3VOyURdJ5y13q',
          refundId: null,
          orderId: 'order-1007',
          transactionType: 'issue',
          type: 'income_deduction',
          identityNumber: '*******5678',
          selfIssued: false,
          amount: 15000,
          taxFreeAmount: 0,
          vat: 1364,
          suppliedAmount: 13636,
          status: 'issued',
          issueNumber: '856890090',
          failureReason: null,
          livemode: false,
          createdAt: '2026-11-29T12:58:42.594Z',
          issuedAt: '2026-11-29T12:58:42.594Z',
          failedAt: null,
        },
      },
    ],
  },
  CashReceiptFailedEvent: {
    ...event('cash_receipt.failed', receiptReached('failed', { failureReason: text, failedAt: instant })),
    description:
      'A cash receipt failed: data is the receipt, status failed, with its failureReason; the buyer may ask again.',
    examples: [
      {
        id: 'evt_n547FNoXxlYkzI7RpyaoMftr',
        type: 'cash_receipt.failed',
        createdAt: '2026-11-29T12:58:42.771Z',
        data: {
          id: 'crc_vv3B73u92bwxPufBAr12gBZH',
          paymentId: 'pay_i3vIEJwUkBvcswMXXdSCC2Lq',
          refundId: null,
          orderId: 'order-1008',
          transactionType: 'issue',
          type: 'income_deduction',
          identityNumber: '*******0000',
          selfIssued: false,
          amount: 15000,
          taxFreeAmount: 0,
          vat: 1364,
          suppliedAmount: 13636,
          status: 'failed',
          issueNumber: null,
          failureReason: 'identity_rejected',
          livemode: false,
          createdAt: '2026-11-29T12:58:42.771Z',
          issuedAt: null,
          failedAt: '2026-11-29T12:58:42.771Z',
        },
      },
    ],
  },
  EscrowConfirmedEvent: {
    ...event('escrow.confirmed', escrowOutcomeData('confirmed')),
    description:
      "An escrow was confirmed, by the buyer or (autoConfirmed) when autoConfirmAt passed: the payment's payout is scheduled.",
    examples: [
      {
        id: 'evt_5q0zDhMjm9PVJOhZYkywbh88',
        type: 'escrow.confirmed',
        createdAt: '2026-11-29T15:53:43.836Z',
        data: {
          paymentId: 'pay_UpFvURgKxMOLEZqFRwByDNr3',
          orderId: 'order-1009',
          amount: 39000,
          currency: 'KRW',
          status: 'confirmed',
          confirmedAt: '2026-11-29T15:53:43.836Z',
          rejectedAt: null,
          rejectReason: null,
          autoConfirmed: false,
        },
      },
    ],
  },
  EscrowRejectedEvent: {
    ...event('escrow.rejected', escrowOutcomeData('rejected')),
    description:
      "An escrow's buyer rejected the goods, with a reason: the payout stays held and the operator reviews the case; refunds work as on any completed payment.",
    examples: [
      {
        id: 'evt_yZm44Hh8ksbMdkgJVeIHoXUh',
        type: 'escrow.rejected',
        createdAt: '2026-11-29T15:53:43.889Z',
        data: {
          paymentId: 'pay_7jy7GwlHm7IFAZg3lw7iaMAQ',
          orderId: 'order-1010',
          amount: 39000,
          currency: 'KRW',
          status: 'rejected',
          confirmedAt: null,
          rejectedAt: '2026-11-29T15:53:43.889Z',
          rejectReason: '상품이 파손되어 도착했습니다.',
          autoConfirmed: null,
        },
      },
    ],
  },
  WebhookEvent: {
    description: 'Any webhook body: a payment outcome, a refund outcome, a cash receipt outcome or an escrow outcome.',
    oneOf: [
      ref('PaymentEvent'),
      ref('RefundSucceededEvent'),
      ref('RefundFailedEvent'),
      ref('CashReceiptIssuedEvent'),
      ref('CashReceiptFailedEvent'),
      ref('EscrowConfirmedEvent'),
      ref('EscrowRejectedEvent'),
    ],
  },
  EndpointDelivery: {
    ...object({
      endpointId: id('we'),
      status: { enum: ['pending', 'succeeded', 'failed'] },
      undeliveredReason: nullable({ type: 'string' }),
    }),
    description: 'What the event owes one endpoint that takes its type; deliveryStatus sums them up.',
    examples: [{ endpointId: 'we_cWx4d81gjQFF7utPa8eGiJkg', status: 'succeeded', undeliveredReason: null }],
  },
  EventSummary: {
    allOf: [ref('WebhookEvent'), ref('EventDelivery')],
    examples: [
      {
        id: 'evt_Hh2Uo73rx09S2XfJcki2Whkt',
        type: 'payment.canceled',
        createdAt: '2026-11-24T06:56:19.977Z',
        data: {
          paymentId: 'pay_RJW6rRK0jioSlaqNOeOqmtht',
          orderId: 'order-1002',
          amount: 8000,
          currency: 'KRW',
          status: 'canceled',
          canceledAt: '2026-11-24T06:56:19.977Z',
        },
        livemode: false,
        deliveryStatus: 'succeeded',
        undeliveredReason: null,
      },
    ],
  },
  Event: {
    allOf: [
      ref('EventSummary'),
      {
        type: 'object',
        properties: {
          deliveries: { type: 'array', items: ref('EndpointDelivery') },
          attempts: { type: 'array', items: ref('WebhookAttempt') },
        },
        required: ['deliveries', 'attempts'],
      },
    ],
    examples: [
      {
        id: 'evt_sUNQUGF3Sc1sPOnzLKPFHJF2',
        type: 'payment.completed',
        createdAt: '2026-11-26T07:47:17.427Z',
        data: {
          paymentId: 'pay_HYCOcsOv5eA0FMlmiZDpLJhC',
          orderId: 'order-1001',
          amount: 15000,
          currency: 'KRW',
          completedAt: '2026-11-26T07:47:17.427Z',
        },
        livemode: false,
        deliveryStatus: 'succeeded',
        undeliveredReason: null,
        deliveries: [
          { endpointId: 'we_cWx4d81gjQFF7utPa8eGiJkg', status: 'succeeded', undeliveredReason: null },
          { endpointId: 'we_UWnEcTgWNQ3mtbPhohSdjya0', status: 'succeeded', undeliveredReason: null },
        ],
        attempts: [
          {
            id: 'att_ZwBmX6HnCPMY6lETKdRZFPx2',
            endpointId: 'we_cWx4d81gjQFF7utPa8eGiJkg',
            number: 1,
            startedAt: '2026-11-26T07:47:17.464Z',
            durationMs: 31,
            responseStatus: 200,
            responseBody: 'ok',
            error: null,
          },
          {
            id: 'att_gxVtNTEKOSY8JfN8H4KEA7Fp',
            endpointId: 'we_UWnEcTgWNQ3mtbPhohSdjya0',
            number: 2,
            startedAt: '2026-11-26T07:47:17.472Z',
            durationMs: 40,
            responseStatus: 200,
            responseBody: 'ok',
            error: null,
          },
        ],
      },
    ],
  },
  // The answers to a redelivery of the completion event above and to a recover of the hour before it.
  EventRedelivery: {
    ...object({ eventId: id('evt'), status: { const: 'queued' } }),
    description: 'The event is queued to be sent again; its attempts show what came of it.',
    examples: [{ eventId: 'evt_Wm6Ax4Mobfmd8s3S5oGtn6HM', status: 'queued' }],
  },
  EventsRecovery: {
    ...object({ since: instant, queued: { type: 'integer', minimum: 0 } }),
    description:
      'How many failed deliveries since `since` the request found and queued to be sent again, oldest first: ' +
      'they turn pending shortly after the answer.',
    examples: [{ since: '2026-11-24T06:00:00.000Z', queued: 1 }],
  },
};
