import {
  MAX_AMOUNT,
  METADATA_KEY_MAX_CHARS,
  METADATA_MAX_KEYS,
  METADATA_VALUE_MAX_CHARS,
  MIN_AMOUNT,
  ESCROW_STATUSES,
  PAYMENT_STATUSES,
  REJECT_REASON_MAX_CHARS,
  SHIPMENT_FIELD_MAX_CHARS,
} from '@payhook/contracts';
import { instant, nullable, object, ref, type Schema } from '../../platform/openapi/schema-builders';

/** An amount a payment, a refund or an event carries. */
export const krwAmount: Schema = {
  type: 'integer',
  minimum: MIN_AMOUNT,
  maximum: MAX_AMOUNT,
  description: 'whole KRW',
};

/** A merchant's own keys, as create (or a refund request) gave them; `{}` when none. */
export const metadataSchema: Schema = {
  type: 'object',
  additionalProperties: { type: 'string', maxLength: METADATA_VALUE_MAX_CHARS },
  maxProperties: METADATA_MAX_KEYS,
  propertyNames: { pattern: `^[A-Za-z0-9_.-]{1,${METADATA_KEY_MAX_CHARS}}$` },
  description: "the merchant's own keys, as given; {} when none",
};

/** Whole KRW that may be 0: the parts of a VAT split. */
const krwPart = (description: string): Schema => ({ type: 'integer', minimum: 0, maximum: MAX_AMOUNT, description });

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
 * payment created, then completed by the test helper; the escrow's from a test escrow payment,
 * completed, then shipped: 7 business days on, 00:00 Asia/Seoul).
 */
export const PAYMENT_SCHEMAS: Record<string, Schema> = {
  Escrow: {
    ...object({
      status: {
        enum: [...ESCROW_STATUSES],
        description:
          'awaiting_shipment until the merchant ships; shipped until the buyer confirms or rejects (or autoConfirmAt passes)',
      },
      carrier: nullable({ type: 'string', maxLength: SHIPMENT_FIELD_MAX_CHARS }),
      trackingNumber: nullable({ type: 'string', maxLength: SHIPMENT_FIELD_MAX_CHARS }),
      shippedAt: nullable(instant),
      autoConfirmAt: {
        ...nullable(instant),
        description: '00:00 Asia/Seoul of the day a shipped escrow confirms by itself',
      },
      confirmedAt: nullable(instant),
      rejectedAt: nullable(instant),
      rejectReason: nullable({ type: 'string', maxLength: REJECT_REASON_MAX_CHARS }),
    }),
    description: "the buyer's e-mail address is never shown",
    examples: [
      {
        status: 'shipped',
        carrier: 'CJ대한통운',
        trackingNumber: '6901-2345-6789',
        shippedAt: '2026-11-29T15:53:43.687Z',
        autoConfirmAt: '2026-12-08T15:00:00.000Z',
        confirmedAt: null,
        rejectedAt: null,
        rejectReason: null,
      },
    ],
  },
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
      taxFreeAmount: krwPart('the part exempt from VAT (면세), 0 to amount'),
      vat: krwPart('VAT inside the taxable part (amount − taxFreeAmount): ⌊(taxable + 5) / 11⌋'),
      suppliedAmount: krwPart('the taxable part less its VAT (공급가액)'),
      metadata: metadataSchema,
      escrow: {
        ...nullable(ref('Escrow')),
        description: 'the escrow (구매안전서비스) of a payment created with one; null for any other',
      },
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
        taxFreeAmount: 3000,
        vat: 1091,
        suppliedAmount: 10909,
        metadata: { cartId: 'cart-5521', channel: '모바일' },
        escrow: null,
      },
    ],
  },
};
