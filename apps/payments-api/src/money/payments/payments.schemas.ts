import { MAX_AMOUNT, MIN_AMOUNT, PAYMENT_STATUSES } from '@payhook/contracts';
import { instant, nullable, object, type Schema } from '../../platform/openapi/schema-builders';

/** An amount a payment, a refund or an event carries. */
export const krwAmount: Schema = {
  type: 'integer',
  minimum: MIN_AMOUNT,
  maximum: MAX_AMOUNT,
  description: 'whole KRW',
};

const createdPayment = {
  id: { type: 'string', pattern: '^pay_' },
  orderId: { type: 'string' },
  amount: krwAmount,
  currency: { const: 'KRW' },
  status: { enum: [...PAYMENT_STATUSES] },
  payUrl: { type: 'string', format: 'uri' },
  expiresAt: instant,
};

/**
 * A payment's response shapes, each with its example recorded from a real run of payhook (a test
 * payment created, then completed by the test helper).
 */
export const PAYMENT_SCHEMAS: Record<string, Schema> = {
  CreatedPayment: {
    ...object(createdPayment),
    examples: [
      {
        id: 'pay_94BwtvsFTL7PLFYo4gBf7Re1',
        orderId: 'order-1001',
        amount: 15000,
        currency: 'KRW',
        status: 'pending',
        payUrl: 'http://pay.test/p/WWR3Ne3wL_KTbmePFZkrUpMEwYG1lg0D',
        expiresAt: '2026-11-24T07:26:19.867Z',
      },
    ],
  },
  Payment: {
    ...object({
      ...createdPayment,
      createdAt: instant,
      completedAt: nullable(instant),
      livemode: { type: 'boolean' },
      refundedAmount: { type: 'integer', minimum: 0, description: 'the sum of succeeded refunds, whole KRW' },
    }),
    examples: [
      {
        id: 'pay_94BwtvsFTL7PLFYo4gBf7Re1',
        orderId: 'order-1001',
        amount: 15000,
        currency: 'KRW',
        status: 'completed',
        payUrl: 'http://pay.test/p/WWR3Ne3wL_KTbmePFZkrUpMEwYG1lg0D',
        expiresAt: '2026-11-24T07:26:19.867Z',
        createdAt: '2026-11-24T06:56:19.867Z',
        completedAt: '2026-11-24T06:56:19.876Z',
        livemode: false,
        refundedAmount: 0,
      },
    ],
  },
};
