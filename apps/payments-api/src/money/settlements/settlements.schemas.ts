import { MAX_AMOUNT } from '@payhook/contracts';
import { id, instant, nullable, object, type Schema } from '../../platform/openapi/schema-builders';

/** A settlement record, with its example recorded from a real run of payhook (a completed test payment's). */
export const SETTLEMENT_SCHEMAS: Record<string, Schema> = {
  Settlement: {
    ...object({
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
      payoutStatus: {
        enum: ['scheduled', 'held'],
        description: "held: an escrow payment's record waiting for the buyer's confirmation, with no payout date yet",
      },
      payoutDate: nullable({
        type: 'string',
        format: 'date',
        description: 'a Korean banking day (ADR 0010); null while held',
      }),
      payoutRule: nullable({ enum: ['kr_public_holidays', 'weekdays_only'] }),
      completedAt: instant,
    }),
    examples: [
      {
        type: 'payment',
        paymentId: 'pay_94BwtvsFTL7PLFYo4gBf7Re1',
        refundId: null,
        orderId: 'order-1001',
        livemode: false,
        currency: 'KRW',
        grossAmount: 15000,
        feeBps: 250,
        feeAmount: 375,
        vatAmount: 37,
        netAmount: 14588,
        salesDate: '2026-11-24',
        payoutStatus: 'scheduled',
        payoutDate: '2026-11-26',
        payoutRule: 'kr_public_holidays',
        completedAt: '2026-11-24T06:56:19.876Z',
      },
    ],
  },
};
