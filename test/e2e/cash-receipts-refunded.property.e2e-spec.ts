import fc from 'fast-check';
import { PaymentsApiHarness, type TestMerchant } from '../support/payments-api.harness';
import { completedPayment, refundsClient } from '../support/refunds-client';

type Receipt = {
  transactionType: 'issue' | 'cancel';
  refundId: string | null;
  amount: number;
  taxFreeAmount: number;
  vat: number;
  suppliedAmount: number;
};

const FIELDS = ['amount', 'taxFreeAmount', 'vat', 'suppliedAmount'] as const;

/** A history: a payment, its refunds (each a share of what is left, maybe with its own tax-free share), and when the receipt is asked for. */
const history = fc.record({
  amount: fc.oneof(fc.integer({ min: 1, max: 200 }), fc.integer({ min: 1, max: 10_000_000 })),
  taxFreeShare: fc.oneof(fc.constant(0), fc.constant(1), fc.double({ min: 0, max: 1, noNaN: true })),
  refunds: fc.array(
    fc.record({
      share: fc.double({ min: 0, max: 1, noNaN: true }),
      taxFreeShare: fc.option(fc.double({ min: 0, max: 1, noNaN: true })),
    }),
    { maxLength: 4 },
  ),
  /** How many of the refunds come before the receipt is asked for (at create when 0). */
  receiptAfter: fc.nat({ max: 4 }),
});

/**
 * Issue 51: however a payment is refunded in part, before or after its receipt, the cancel receipts
 * made after its issue receipt add up to that receipt, field by field, once the payment is refunded
 * in full (through the API, on the real database: the ledger's SQL, not a model of it).
 */
describe('the cancel receipts of a fully refunded payment', () => {
  let api: PaymentsApiHarness;
  let merchant: TestMerchant;

  beforeAll(async () => {
    api = await PaymentsApiHarness.start({ RATE_LIMIT_PER_SECOND: '0' });
    merchant = await api.merchantWithKey('test');
  });
  afterAll(() => api.stop());

  it('add up to its issue receipt, field by field', async () => {
    const refunds = refundsClient(api, merchant);
    await fc.assert(
      fc.asyncProperty(history, async ({ amount, taxFreeShare, refunds: asked, receiptAfter }) => {
        const taxFreeAmount = Math.floor(amount * taxFreeShare);
        const atCreate = receiptAfter === 0;
        const paymentId = await completedPayment(api, merchant, amount, false, {
          taxFreeAmount,
          ...(atCreate ? { cashReceipt: { type: 'income_deduction', identityNumber: '01012345678' } } : {}),
        });
        let left = { amount, taxFree: taxFreeAmount };
        let receiptAsked = atCreate;
        const askReceipt = async () => {
          await api
            .as(merchant)
            .post(`/v1/payments/${paymentId}/cash-receipts`)
            .send({ type: 'income_deduction', identityNumber: '01012345678' })
            .expect(201);
          receiptAsked = true;
        };
        for (const [index, refund] of asked.entries()) {
          if (!receiptAsked && index === receiptAfter) await askReceipt();
          const refundAmount = Math.max(1, Math.floor(left.amount * refund.share));
          if (refundAmount >= left.amount) break;
          // An explicit tax-free part within the rules: at most the tax-free part left, and its taxable part at most the taxable left.
          const lowest = Math.max(0, refundAmount - (left.amount - left.taxFree));
          const highest = Math.min(refundAmount, left.taxFree);
          const body =
            refund.taxFreeShare === null
              ? { amount: refundAmount }
              : { amount: refundAmount, taxFreeAmount: lowest + Math.floor((highest - lowest) * refund.taxFreeShare) };
          const made = (await refunds.create(paymentId, body).expect(201)).body.data as { taxFreeAmount: number };
          left = { amount: left.amount - refundAmount, taxFree: left.taxFree - made.taxFreeAmount };
        }
        if (!receiptAsked) await askReceipt();
        // The rest, in one refund.
        await refunds.create(paymentId, {}).expect(201);

        const receipts = (
          await api.as(merchant).get('/v1/cash-receipts').query({ paymentId, limit: '100' }).expect(200)
        ).body.data as Receipt[];
        const [issue] = receipts.filter(({ transactionType }) => transactionType === 'issue');
        const cancels = receipts.filter(({ transactionType }) => transactionType === 'cancel');
        expect(issue).toBeDefined();
        for (const field of FIELDS) {
          expect({ field, sum: cancels.reduce((sum, cancel) => sum + cancel[field], 0) }).toEqual({
            field,
            sum: issue[field],
          });
        }
        for (const receipt of receipts) for (const field of FIELDS) expect(receipt[field]).toBeGreaterThanOrEqual(0);
      }),
      { numRuns: 40 },
    );
  }, 120_000);
});
