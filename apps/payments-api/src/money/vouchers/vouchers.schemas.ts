import { VOUCHER_KINDS } from '@payhook/contracts';
import { id, nullable, object, ref, type Schema } from '../../platform/openapi/schema-builders';

const voucher = {
  id: id('vch'),
  livemode: { type: 'boolean' },
  kind: { enum: [...VOUCHER_KINDS] },
  faceValue: { type: 'integer', minimum: 1 },
  pinLast4: { type: 'string', pattern: '^[0-9]{4}$' },
  status: { enum: ['available', 'held', 'redeemed'] },
  paymentId: nullable(id('pay')),
};

const loadedVoucher = {
  id: 'vch_II0PJ5g7VZ8oAORthZdQ7wrb',
  livemode: true,
  kind: 'book',
  faceValue: 50000,
  pinLast4: '3456',
  status: 'available',
  paymentId: null,
};

/*
 * Each shape with its example recorded from a real run of payhook (a test voucher issued, a live
 * voucher loaded by the operator). Two parts, since the documents list the answers that add
 * vouchers apart from the voucher itself (surfaces/docs/openapi.document.ts).
 */

/** A voucher as the registry holds it, without its PIN. */
export const VOUCHER_SCHEMAS: Record<string, Schema> = {
  Voucher: { ...object(voucher), examples: [loadedVoucher] },
};

/** The answers that add vouchers: a test voucher with its PIN, and the operator's load of live ones. */
export const NEW_VOUCHER_SCHEMAS: Record<string, Schema> = {
  TestVoucher: {
    ...object({ ...voucher, pin: { type: 'string', pattern: '^[0-9]{16}$' } }),
    description: 'A test voucher with its PIN: the one time it is shown.',
    examples: [
      {
        id: 'vch_Piv3F54PGSKXs89CG9XhmnNC',
        livemode: false,
        kind: 'culture',
        faceValue: 10000,
        pinLast4: '7845',
        status: 'available',
        paymentId: null,
        pin: '2787823419867845',
      },
    ],
  },
  VoucherLoad: {
    ...object({
      loaded: { type: 'integer', minimum: 0 },
      skipped: { type: 'integer', minimum: 0, description: 'PINs the registry already held (never overwritten)' },
      vouchers: { type: 'array', items: ref('Voucher') },
    }),
    examples: [{ loaded: 1, skipped: 0, vouchers: [loadedVoucher] }],
  },
};
