import { id, instant, nullable, object, text, type Schema } from '../../platform/openapi/schema-builders';

/** A deposit, with its example recorded from a real run of payhook (a test deposit matched to its payment). */
export const DEPOSIT_SCHEMAS: Record<string, Schema> = {
  Deposit: {
    ...object({
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
    examples: [
      {
        id: 'dep_tcU4wy37gqW4GioAOO4GQ32V',
        livemode: false,
        bankTransactionId: 'test_3nLAADEv04XB5mRUrc9b',
        amount: 30000,
        depositCode: '2WZB32FC',
        depositorName: 'TEST DEPOSITOR',
        receivedAt: '2026-11-24T06:56:20.039Z',
        outcome: 'matched',
        paymentId: 'pay_FVD1ywaGUkmg6fhUggXk2y3t',
        reviewCaseId: null,
        reviewReason: null,
        createdAt: '2026-11-24T06:56:20.039Z',
      },
    ],
  },
};
