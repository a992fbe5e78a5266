import { MAX_AMOUNT, REFUND_STATUSES } from '@payhook/contracts';
import { id, instant, nullable, object, text, type Schema } from '../../platform/openapi/schema-builders';
import { krwAmount, metadataSchema } from '../payments';

/** Whole KRW that may be 0: the parts of a refund's VAT split. */
const krwPart: Schema = { type: 'integer', minimum: 0, maximum: MAX_AMOUNT };

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
  taxFreeAmount: {
    ...krwPart,
    description:
      "the refund's part exempt from VAT (면세): as asked, or its share of the payment's tax-free amount not yet refunded",
  },
  vat: {
    ...nullable(krwPart),
    description:
      "fixed when the refund succeeds, by running totals: VAT(P − T₀) − VAT(P − T₁), P the payment's taxable amount, " +
      'T₀ and T₁ the taxable parts refunded before and with this one; null while pending or failed',
  },
  suppliedAmount: {
    ...nullable(krwPart),
    description: 'its taxable part (amount − taxFreeAmount) less its vat (공급가액); null while pending or failed',
  },
  metadata: {
    ...metadataSchema,
    description: "the merchant's own keys, as the refund request gave them; {} when none",
  },
};

/**
 * A refund's response shapes, each with its example recorded from a real run of payhook: a partial
 * test refund of a ₩10,000 payment with ₩3,000 tax-free (its default tax-free share, its VAT by
 * running totals), and for the operator's queue a live refund while still pending, when its refund
 * account is shown (no VAT split until it succeeds).
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
        taxFreeAmount: 1500,
        vat: 318,
        suppliedAmount: 3182,
        metadata: { returnId: 'ret-7781' },
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
        taxFreeAmount: 0,
        vat: null,
        suppliedAmount: null,
        metadata: {},
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
