import { CASH_RECEIPT_STATUSES, CASH_RECEIPT_TYPES, MAX_AMOUNT, MIN_AMOUNT } from '@payhook/contracts';
import { id, instant, nullable, object, text, type Schema } from '../../platform/openapi/schema-builders';

/**
 * Whole KRW of at least 1, as a payment's amount. Not imported from the payments feature: payments
 * import this feature (a buyer's number at create), and the cycle left the schema uninitialised
 * for whoever loaded payments first.
 */
const krwAmount: Schema = { type: 'integer', minimum: MIN_AMOUNT, maximum: MAX_AMOUNT, description: 'whole KRW' };

/** Whole KRW that may be 0: the parts of a receipt's VAT split. */
const krwPart: Schema = { type: 'integer', minimum: 0, maximum: MAX_AMOUNT };

const cashReceipt = {
  id: id('crc'),
  paymentId: id('pay'),
  refundId: { ...nullable(id('rfd')), description: 'the refund a cancel receipt takes back; null on an issue receipt' },
  orderId: text,
  transactionType: {
    enum: ['issue', 'cancel'],
    description: 'issue: what the buyer paid and was not refunded when it was made; cancel: one succeeded refund',
  },
  type: { enum: [...CASH_RECEIPT_TYPES], description: 'income_deduction (소득공제) or expense_proof (지출증빙)' },
  identityNumber: {
    type: 'string',
    pattern: '^\\*+[0-9]{4}$',
    description: "the buyer's number, every digit but the last four as *",
  },
  selfIssued: {
    type: 'boolean',
    description: "issued unasked to the tax office's own number 0100001234 (a merchant marked cashReceiptRequired)",
  },
  amount: krwAmount,
  taxFreeAmount: krwPart,
  vat: krwPart,
  suppliedAmount: krwPart,
  status: {
    enum: [...CASH_RECEIPT_STATUSES],
    description: 'pending until the tax office answers (at once in test mode)',
  },
  issueNumber: { ...nullable(text), description: "the tax office's approval number; null until issued" },
  failureReason: nullable(text),
  livemode: { type: 'boolean' },
  createdAt: instant,
  issuedAt: nullable(instant),
  failedAt: nullable(instant),
};

/**
 * A cash receipt's response shapes: a test receipt asked for at create for a ₩15,000 payment,
 * issued at completion; for the operator's queue a live receipt while still pending, its number whole.
 */
export const CASH_RECEIPT_SCHEMAS: Record<string, Schema> = {
  CashReceipt: {
    ...object(cashReceipt),
    examples: [
      {
        id: 'crc_Q2v8ZpXk1N7bRw3TyL6mHs4D',
        paymentId: 'pay_HykHRZNWWQZBkk0blqCgqC1v',
        refundId: null,
        orderId: 'order-1005',
        transactionType: 'issue',
        type: 'income_deduction',
        identityNumber: '*******5678',
        selfIssued: false,
        amount: 15000,
        taxFreeAmount: 0,
        vat: 1364,
        suppliedAmount: 13636,
        status: 'issued',
        issueNumber: '417203958',
        failureReason: null,
        livemode: false,
        createdAt: '2026-11-29T04:12:31.207Z',
        issuedAt: '2026-11-29T04:12:31.207Z',
        failedAt: null,
      },
    ],
  },
  AdminCashReceipt: {
    ...object({
      ...cashReceipt,
      merchantId: id('mch'),
      identityNumber: { type: 'string', pattern: '^[0-9]{10,19}$', description: "the buyer's number whole, to report" },
    }),
    examples: [
      {
        id: 'crc_b7TnQ4mW2xK9cYp1Vr8Lz5Ha',
        paymentId: 'pay_5RnokCuSVmJISgvRmDjKlsXt',
        refundId: null,
        orderId: 'order-2001',
        transactionType: 'issue',
        type: 'expense_proof',
        identityNumber: '1248100998',
        selfIssued: false,
        amount: 120000,
        taxFreeAmount: 0,
        vat: 10909,
        suppliedAmount: 109091,
        status: 'pending',
        issueNumber: null,
        failureReason: null,
        livemode: true,
        createdAt: '2026-11-29T04:15:02.551Z',
        issuedAt: null,
        failedAt: null,
        merchantId: 'mch_l4iVLwVwlbX7uGf01tkffJUc',
      },
    ],
  },
};
