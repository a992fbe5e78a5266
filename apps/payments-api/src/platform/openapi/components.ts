import {
  API_KEY_MODES,
  DELIVERY_STATUSES,
  ERROR_CODES,
  EVENT_TYPES,
  MAX_AMOUNT,
  MAX_FEE_BPS,
  MIN_AMOUNT,
  MERCHANT_STATUSES,
  PAYMENT_STATUSES,
  REFUND_STATUSES,
  REVIEW_ACTIONS,
  SCENARIO_NAMES,
  VOUCHER_KINDS,
} from '@payhook/contracts';
import { RECORDED_EXAMPLES } from './recorded-examples';

/**
 * The response shapes of the merchant API as JSON Schema components (OpenAPI 3.1), built from the
 * contract's own constants so an enum cannot fall behind the code. The request shapes come from the
 * DTOs' decorators.
 */
type Schema = Record<string, unknown>;

const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const instant: Schema = { type: 'string', format: 'date-time' };
const nullable = (schema: Schema): Schema => ({ oneOf: [schema, { type: 'null' }] });
const object = (properties: Record<string, Schema>, optional: string[] = []): Schema => ({
  type: 'object',
  properties,
  required: Object.keys(properties).filter((name) => !optional.includes(name)),
  additionalProperties: false,
});
const id = (prefix: string): Schema => ({ type: 'string', pattern: `^${prefix}_` });
const text: Schema = { type: 'string' };
const calendarDate: Schema = { type: 'string', format: 'date' };
const amount: Schema = { type: 'integer', minimum: MIN_AMOUNT, maximum: MAX_AMOUNT, description: 'whole KRW' };

const outcomeData = (status: string, at: string): Schema =>
  object({
    paymentId: { type: 'string' },
    orderId: { type: 'string' },
    amount,
    currency: { const: 'KRW' },
    status: { const: status },
    [at]: instant,
  });

const refundOutcomeData = (status: string, at: string): Schema =>
  object({
    refundId: id('rfd'),
    paymentId: id('pay'),
    orderId: text,
    amount,
    currency: { const: 'KRW' },
    status: { const: status },
    reason: nullable(text),
    [at]: instant,
  });

/** Open at the top level: Event and EventSummary add their fields and close it (unevaluatedProperties). */
const event = (type: string, data: Schema): Schema => {
  const schema = object({ id: { type: 'string', pattern: '^evt_' }, type: { const: type }, createdAt: instant, data });
  delete schema.additionalProperties;
  return schema;
};

const refund = {
  id: id('rfd'),
  paymentId: id('pay'),
  orderId: text,
  amount,
  currency: { const: 'KRW' },
  reason: nullable(text),
  status: { enum: [...REFUND_STATUSES] },
  livemode: { type: 'boolean' },
  createdAt: instant,
  succeededAt: nullable(instant),
  failedAt: nullable(instant),
  failureReason: nullable(text),
};

const createdPayment = {
  id: { type: 'string', pattern: '^pay_' },
  orderId: { type: 'string' },
  amount,
  currency: { const: 'KRW' },
  status: { enum: [...PAYMENT_STATUSES] },
  payUrl: { type: 'string', format: 'uri' },
  expiresAt: instant,
};

const listenSession = {
  id: id('lsn'),
  livemode: { const: false },
  enabledEvents: {
    ...nullable({ type: 'array', items: { enum: [...EVENT_TYPES] } }),
    description: 'null: every type',
  },
  status: { enum: ['open', 'ended'] },
  createdAt: instant,
  endedAt: nullable(instant),
};

/** The merchant's test-mode helpers beyond moving a payment, and onboarding. */
const voucher = {
  id: id('vch'),
  livemode: { type: 'boolean' },
  kind: { enum: [...VOUCHER_KINDS] },
  faceValue: { type: 'integer', minimum: 1 },
  pinLast4: { type: 'string', pattern: '^[0-9]{4}$' },
  status: { enum: ['available', 'held', 'redeemed'] },
  paymentId: nullable(id('pay')),
};
const HELPER_SCHEMAS: Record<string, Schema> = {
  Deposit: object({
    id: id('dep'),
    livemode: { type: 'boolean' },
    bankTransactionId: text,
    amount: { type: 'integer', minimum: 1 },
    depositCode: nullable(text),
    depositorName: text,
    receivedAt: instant,
    outcome: { enum: ['matched', 'review'], description: 'review: a person decides (see reviewCaseId)' },
    paymentId: nullable(id('pay')),
    reviewCaseId: nullable(id('rev')),
    reviewReason: nullable(text),
    createdAt: instant,
  }),
  Voucher: object(voucher),
  IntegrationTest: object({
    id: id('itr'),
    status: { enum: ['running', 'passed', 'failed'] },
    scenarios: {
      type: 'array',
      items: object({
        name: { enum: [...SCENARIO_NAMES] },
        status: { enum: ['pending', 'running', 'passed', 'failed'] },
        detail: { type: 'string', description: 'what was sent and what came back' },
      }),
    },
    startedAt: instant,
    finishedAt: nullable(instant),
  }),
  IntegrationTestStarted: object({ id: id('itr'), status: { const: 'running' } }),
  TestVoucher: {
    ...object({ ...voucher, pin: { type: 'string', pattern: '^[0-9]{16}$' } }),
    description: 'A test voucher with its PIN: the one time it is shown.',
  },
};

/** The operator API's shapes. */
const apiKey = {
  id: id('key'),
  merchantId: id('mch'),
  mode: { enum: [...API_KEY_MODES] },
  maskedKey: { type: 'string', description: 'svc_<mode>_… and the last 4 characters' },
  createdAt: instant,
  lastUsedAt: nullable(instant),
  revokedAt: nullable(instant),
};
const OPERATOR_SCHEMAS: Record<string, Schema> = {
  Merchant: object({
    id: id('mch'),
    name: text,
    status: { enum: [...MERCHANT_STATUSES] },
    timeZone: { type: 'string', description: 'IANA time zone' },
    feeBps: { type: 'integer', minimum: 0, maximum: MAX_FEE_BPS },
    settlementDelayDays: { type: 'integer', minimum: 1, maximum: 30 },
    consoleEmail: nullable({ type: 'string', format: 'email' }),
    createdAt: instant,
    latestIntegrationTest: nullable(ref('IntegrationTest')),
  }),
  ApiKey: object(apiKey),
  IssuedApiKey: {
    ...object({ ...apiKey, key: { type: 'string', pattern: '^svc_(test|live)_' } }),
    description: 'The plain key is in this answer only: it is never stored.',
  },
  VoucherLoad: object({
    loaded: { type: 'integer', minimum: 0 },
    skipped: { type: 'integer', minimum: 0, description: 'PINs the registry already held (never overwritten)' },
    vouchers: { type: 'array', items: ref('Voucher') },
  }),
  ReviewCase: object({
    id: id('rev'),
    status: { enum: ['open', 'resolved'] },
    livemode: { type: 'boolean' },
    source: { enum: ['deposit', 'vouchers'] },
    reason: {
      type: 'string',
      description:
        'deposit_code_missing, deposit_code_unknown, amount_short, amount_over, payment_<status>, voucher_over_cover',
    },
    amount: { type: 'integer', minimum: 0 },
    merchantId: nullable(id('mch')),
    paymentId: nullable(id('pay')),
    deposit: nullable(
      object({
        id: id('dep'),
        bankTransactionId: text,
        amount: { type: 'integer', minimum: 1 },
        depositCode: nullable(text),
        depositorName: text,
        receivedAt: instant,
      }),
    ),
    createdAt: instant,
    resolution: nullable(
      object({
        action: { enum: [...REVIEW_ACTIONS] },
        resolvedBy: text,
        note: nullable(text),
        refundAmount: nullable({ type: 'integer', minimum: 0 }),
        resolvedAt: instant,
      }),
    ),
  }),
  Holiday: object({ date: calendarDate, name: text }),
};

export const COMPONENT_SCHEMAS: Record<string, Schema> = withRecordedExamples({
  Error: {
    ...object({
      error: object(
        {
          type: { type: 'string' },
          code: { enum: Object.keys(ERROR_CODES) },
          message: { type: 'string' },
          param: { type: 'string', description: 'the request field, header or parameter at fault' },
          requestId: { type: 'string' },
        },
        ['param'],
      ),
    }),
    description:
      'The one error shape of every error response; the codes and when each comes: docs/merchant-guide.md, Errors.',
  },
  CreatedPayment: object(createdPayment),
  Payment: object({
    ...createdPayment,
    createdAt: instant,
    completedAt: nullable(instant),
    livemode: { type: 'boolean' },
    refundedAmount: { type: 'integer', minimum: 0, description: 'the sum of succeeded refunds, whole KRW' },
  }),
  Refund: object(refund),
  AdminRefund: object({
    ...refund,
    refundAccount: {
      ...nullable(object({ bank: text, accountNumber: text, holderName: text })),
      description: 'where the money goes, while the refund is pending; null once it succeeded or failed (forgotten)',
    },
    bankTransactionId: nullable(text),
  }),
  PaymentCompletedEvent: event(
    'payment.completed',
    object({
      paymentId: { type: 'string' },
      orderId: { type: 'string' },
      amount,
      currency: { const: 'KRW' },
      completedAt: instant,
    }),
  ),
  PaymentFailedEvent: event('payment.failed', outcomeData('failed', 'failedAt')),
  PaymentCanceledEvent: event('payment.canceled', outcomeData('canceled', 'canceledAt')),
  PaymentExpiredEvent: event('payment.expired', outcomeData('expired', 'expiredAt')),
  PaymentEvent: {
    description: 'A webhook body, as signed and sent; headers and verification: docs/merchant-guide.md, Webhooks.',
    oneOf: ['PaymentCompletedEvent', 'PaymentFailedEvent', 'PaymentCanceledEvent', 'PaymentExpiredEvent'].map(ref),
    discriminator: { propertyName: 'type' },
  },
  WebhookAttempt: object({
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
  EventDelivery: {
    type: 'object',
    properties: {
      livemode: { type: 'boolean' },
      deliveryStatus: { enum: [...DELIVERY_STATUSES] },
      undeliveredReason: nullable({ type: 'string' }),
    },
    required: ['livemode', 'deliveryStatus', 'undeliveredReason'],
  },
  RefundSucceededEvent: event('refund.succeeded', refundOutcomeData('succeeded', 'succeededAt')),
  RefundFailedEvent: event('refund.failed', refundOutcomeData('failed', 'failedAt')),
  WebhookEvent: {
    description: 'Any webhook body: a payment outcome or a refund outcome.',
    oneOf: [ref('PaymentEvent'), ref('RefundSucceededEvent'), ref('RefundFailedEvent')],
  },
  EndpointDelivery: {
    ...object({
      endpointId: id('we'),
      status: { enum: ['pending', 'succeeded', 'failed'] },
      undeliveredReason: nullable({ type: 'string' }),
    }),
    description: 'What the event owes one endpoint that takes its type; deliveryStatus sums them up.',
  },
  EventSummary: { allOf: [ref('WebhookEvent'), ref('EventDelivery')] },
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
  },
  EventRedelivery: {
    ...object({ eventId: id('evt'), status: { const: 'queued' } }),
    description: 'The event is queued to be sent again; its attempts show what came of it.',
  },
  EventsRecovery: {
    ...object({ since: instant, queued: { type: 'integer', minimum: 0 } }),
    description: 'How many failed deliveries since `since` are queued to be sent again, oldest first.',
  },
  Settlement: object({
    type: { enum: ['payment', 'refund'], description: 'a refund record has negative amounts' },
    paymentId: { type: 'string', pattern: '^pay_' },
    refundId: nullable(id('rfd')),
    orderId: { type: 'string' },
    livemode: { type: 'boolean' },
    currency: { const: 'KRW' },
    grossAmount: { type: 'integer', minimum: -MAX_AMOUNT, maximum: MAX_AMOUNT, description: 'whole KRW' },
    feeBps: { type: 'integer', minimum: 0, maximum: 5000 },
    feeAmount: { type: 'integer' },
    vatAmount: { type: 'integer' },
    netAmount: { type: 'integer' },
    salesDate: { type: 'string', format: 'date', description: 'the completion date in Asia/Seoul' },
    payoutDate: { type: 'string', format: 'date', description: 'a Korean banking day (ADR 0010)' },
    payoutRule: { enum: ['kr_public_holidays', 'weekdays_only'] },
    completedAt: instant,
  }),
  ...HELPER_SCHEMAS,
  ...OPERATOR_SCHEMAS,
  WebhookEndpoint: object({
    url: { type: 'string', format: 'uri' },
    signingSecret: { type: 'string', pattern: '^whsec_' },
    livemode: { type: 'boolean' },
    enabledEvents: { type: 'array', items: { enum: [...EVENT_TYPES] } },
    status: { enum: ['enabled', 'disabled'] },
    failingSince: nullable(instant),
    consecutiveFailures: { type: 'integer', minimum: 0 },
    lastError: nullable({ type: 'string' }),
    disabledAt: nullable(instant),
  }),
  ListenSession: object(listenSession),
  // The secret only in the answer to the POST that opens the session.
  CreatedListenSession: object({
    ...listenSession,
    signingSecret: { type: 'string', pattern: '^whsec_', description: "signs every event the session's stream sends" },
  }),
  WebhookEndpointResource: object({
    id: id('we'),
    url: { type: 'string', format: 'uri' },
    description: nullable(text),
    enabledEvents: { type: 'array', items: { enum: [...EVENT_TYPES] } },
    signingSecret: { type: 'string', pattern: '^whsec_' },
    livemode: { type: 'boolean' },
    status: { enum: ['enabled', 'disabled'] },
    failingSince: nullable(instant),
    consecutiveFailures: { type: 'integer', minimum: 0 },
    lastError: nullable({ type: 'string' }),
    disabledAt: nullable(instant),
    createdAt: instant,
  }),
});

/** Each schema with its example recorded from a real answer (JSON Schema's `examples`, as OpenAPI 3.1 reads it). */
function withRecordedExamples(schemas: Record<string, Schema>): Record<string, Schema> {
  return Object.fromEntries(
    Object.entries(schemas).map(([name, schema]) =>
      name in RECORDED_EXAMPLES ? [name, { ...schema, examples: [RECORDED_EXAMPLES[name]] }] : [name, schema],
    ),
  );
}

/** `{data: <schema>}` */
export const dataOf = (name: string): Schema => object({ data: ref(name) });

/** `{data: [<schema>]}`: a short, whole list */
export const dataArrayOf = (name: string): Schema => object({ data: { type: 'array', items: ref(name) } });

/** `{data: [<schema>], hasMore, nextCursor}` */
export const listOf = (name: string): Schema =>
  object({
    data: { type: 'array', items: ref(name) },
    hasMore: { type: 'boolean' },
    nextCursor: nullable({ type: 'string' }),
  });

export const errorRef = ref('Error');
