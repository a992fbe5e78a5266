import {
  DELIVERY_STATUSES,
  ERROR_CODES,
  EVENT_TYPES,
  MAX_AMOUNT,
  MIN_AMOUNT,
  PAYMENT_STATUSES,
} from '@payhook/contracts';

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

/** Open at the top level: Event and EventSummary add their fields and close it (unevaluatedProperties). */
const event = (type: string, data: Schema): Schema => {
  const schema = object({ id: { type: 'string', pattern: '^evt_' }, type: { const: type }, createdAt: instant, data });
  delete schema.additionalProperties;
  return schema;
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

export const COMPONENT_SCHEMAS: Record<string, Schema> = {
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
    description: 'The one error shape of every error response (DESIGN.md §3).',
  },
  CreatedPayment: object(createdPayment),
  Payment: object({
    ...createdPayment,
    createdAt: instant,
    completedAt: nullable(instant),
    livemode: { type: 'boolean' },
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
    description: 'A webhook body, as signed and sent (DESIGN.md §5, §8).',
    oneOf: ['PaymentCompletedEvent', 'PaymentFailedEvent', 'PaymentCanceledEvent', 'PaymentExpiredEvent'].map(ref),
    discriminator: { propertyName: 'type' },
  },
  WebhookAttempt: object({
    id: { type: 'string', pattern: '^att_' },
    number: { type: 'integer', minimum: 1 },
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
  EventSummary: { allOf: [ref('PaymentEvent'), ref('EventDelivery')] },
  Event: {
    allOf: [
      ref('EventSummary'),
      {
        type: 'object',
        properties: { attempts: { type: 'array', items: ref('WebhookAttempt') } },
        required: ['attempts'],
      },
    ],
  },
  Settlement: object({
    paymentId: { type: 'string', pattern: '^pay_' },
    orderId: { type: 'string' },
    livemode: { type: 'boolean' },
    currency: { const: 'KRW' },
    grossAmount: amount,
    feeBps: { type: 'integer', minimum: 0, maximum: 5000 },
    feeAmount: { type: 'integer', minimum: 0 },
    vatAmount: { type: 'integer', minimum: 0 },
    netAmount: { type: 'integer', minimum: 0 },
    salesDate: { type: 'string', format: 'date', description: 'the completion date in Asia/Seoul' },
    payoutDate: { type: 'string', format: 'date', description: 'a Korean banking day (ADR 0010)' },
    payoutRule: { enum: ['kr_public_holidays', 'weekdays_only'] },
    completedAt: instant,
  }),
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
};

/** `{data: <schema>}` */
export const dataOf = (name: string): Schema => object({ data: ref(name) });

/** `{data: [<schema>], hasMore, nextCursor}` */
export const listOf = (name: string): Schema =>
  object({
    data: { type: 'array', items: ref(name) },
    hasMore: { type: 'boolean' },
    nextCursor: nullable({ type: 'string' }),
  });

export const errorRef = ref('Error');
