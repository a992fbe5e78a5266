import { REVIEW_ACTIONS } from '@payhook/contracts';
import { id, instant, nullable, object, text, type Schema } from '../../platform/openapi/schema-builders';

/**
 * A review case, with its example recorded from a real run of payhook (a deposit with an unknown
 * code, which the operator refunded).
 */
export const REVIEW_SCHEMAS: Record<string, Schema> = {
  ReviewCase: {
    ...object({
      id: id('rev'),
      status: { enum: ['open', 'resolved'] },
      livemode: { type: 'boolean' },
      source: { enum: ['deposit', 'vouchers', 'escrow'] },
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
    examples: [
      {
        id: 'rev_PCVPM2IJVClA5MTVQQB8J9KH',
        status: 'resolved',
        livemode: false,
        source: 'deposit',
        reason: 'deposit_code_unknown',
        amount: 12000,
        merchantId: 'mch_l4iVLwVwlbX7uGf01tkffJUc',
        paymentId: null,
        deposit: {
          id: 'dep_BZ9cDeRwa14jbQaXwEhoXnrT',
          bankTransactionId: 'test_K6yi6dIz5oWSil5tSwe7',
          amount: 12000,
          depositCode: 'ZZZZZZ',
          depositorName: '김철수',
          receivedAt: '2026-11-24T06:56:20.054Z',
        },
        createdAt: '2026-11-24T06:56:20.054Z',
        resolution: {
          action: 'refund',
          resolvedBy: 'ops@payhook.example',
          note: 'no such order',
          refundAmount: 12000,
          resolvedAt: '2026-11-24T06:56:20.070Z',
        },
      },
    ],
  },
};
