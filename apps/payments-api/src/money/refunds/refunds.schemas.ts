import { REFUND_STATUSES } from '@payhook/contracts';
import { id, instant, nullable, object, text, type Schema } from '../../platform/openapi/schema-builders';
import { krwAmount } from '../payments';

const refund = {
  id: id('rfd'),
  paymentId: id('pay'),
  orderId: text,
  amount: krwAmount,
  currency: { const: 'KRW' },
  reason: nullable(text),
  status: { enum: [...REFUND_STATUSES] },
  livemode: { type: 'boolean' },
  createdAt: instant,
  succeededAt: nullable(instant),
  failedAt: nullable(instant),
  failureReason: nullable(text),
};

/**
 * A refund's response shapes, each with its example recorded from a real run of payhook: a partial
 * test refund, and for the operator's queue a live refund while still pending, when its refund
 * account is shown.
 */
export const REFUND_SCHEMAS: Record<string, Schema> = {
  Refund: {
    ...object(refund),
    examples: [
      {
        id: 'rfd_zaJdgJjp7Bg2nGCr9n5vT2Iw',
        paymentId: 'pay_HykHRZNWWQZBkk0blqCgqC1v',
        orderId: 'order-1005',
        amount: 5000,
        currency: 'KRW',
        reason: 'customer returned one item',
        status: 'succeeded',
        livemode: false,
        createdAt: '2026-11-25T09:56:48.940Z',
        succeededAt: '2026-11-25T09:56:48.940Z',
        failedAt: null,
        failureReason: null,
      },
    ],
  },
  AdminRefund: {
    ...object({
      ...refund,
      refundAccount: {
        ...nullable(object({ bank: text, accountNumber: text, holderName: text })),
        description: 'where the money goes, while the refund is pending; null once it succeeded or failed (forgotten)',
      },
      bankTransactionId: nullable(text),
    }),
    examples: [
      {
        id: 'rfd_7mYcYcWIWEbpzRAeOnQSv8Zx',
        paymentId: 'pay_5RnokCuSVmJISgvRmDjKlsXt',
        orderId: 'order-2001',
        amount: 12000,
        currency: 'KRW',
        reason: 'size exchange not possible',
        status: 'pending',
        livemode: true,
        createdAt: '2026-11-25T09:56:50.722Z',
        succeededAt: null,
        failedAt: null,
        failureReason: null,
        refundAccount: {
          bank: 'KB Kookmin',
          accountNumber: '123-456-789012',
          holderName: 'Hong Gildong',
        },
        bankTransactionId: null,
      },
    ],
  },
};
