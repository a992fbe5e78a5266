import { secretsKeyId } from '@payhook/config';
import { randomBytes } from 'node:crypto';
import { CashReceiptIdentitiesRekeyer } from '../../apps/payments-api/src/money/cash-receipts/cash-receipt-identities.rekeyer';
import { idemKey } from '../support/api-expectations';
import { isolatedServices, type IsolatedServices } from '../support/isolated-services';
import { paymentBody, PaymentsApiHarness, type TestMerchant } from '../support/payments-api.harness';
import { RecordingLogger } from '../support/recording-logger';
import { completedPayment, refundsClient } from '../support/refunds-client';

jest.setTimeout(180_000);

/** The buyers' numbers, as given and as kept (digits only). */
const MOBILE = { type: 'income_deduction', identityNumber: '010-1234-5678' };
const MOBILE_DIGITS = '01012345678';
const BUSINESS = { type: 'expense_proof', identityNumber: '124-81-00998' };
const BUSINESS_DIGITS = '1248100998';
const CARD = { type: 'income_deduction', identityNumber: '9410 1234 5678 9012' };
const CARD_DIGITS = '9410123456789012';
const TEST_MOBILE = { type: 'income_deduction', identityNumber: '01198765432' };
const TEST_MOBILE_DIGITS = '01198765432';

interface AdminReceipt {
  id: string;
  paymentId: string;
  transactionType: string;
  identityNumber: string;
  selfIssued: boolean;
}

/**
 * A buyer's number for a cash receipt is sealed under SECRETS_KEY, on the payment while it waits for
 * completion and on each receipt, bound to the payment. A rotation re-seals both: once the rekeyer
 * has run, the operator's queue shows every number whole with the previous key gone, and a request
 * made before the rotation still becomes a receipt the operator can read.
 */
describe("cash receipt buyers' numbers across a SECRETS_KEY rotation", () => {
  const oldKey = randomBytes(32);
  const newKey = randomBytes(32);
  let services: IsolatedServices;
  let api: PaymentsApiHarness | undefined;
  let logger: RecordingLogger;
  const everyLine: string[] = [];

  beforeAll(async () => {
    services = await isolatedServices('cash_receipt_rotation');
  });
  afterAll(async () => {
    await api?.stop();
    await services.drop();
  });

  const start = async (keys: Record<string, string>) => {
    await api?.stop();
    if (logger) everyLine.push(...logger.lines);
    logger = new RecordingLogger();
    api = await PaymentsApiHarness.start({ ...services.env, ...keys }, logger);
    return api;
  };
  /** Every sealed number, on payments and on receipts, by the row's id. */
  const sealedNumbers = async () =>
    new Map(
      (
        await api!.sql<{ id: string; sealed: string }>(
          `SELECT id, cash_receipt_identity_sealed AS sealed FROM payments WHERE cash_receipt_identity_sealed IS NOT NULL
           UNION ALL
           SELECT id, identity_number_sealed FROM cash_receipts WHERE identity_number_sealed IS NOT NULL`,
        )
      ).map((row) => [row.id, row.sealed]),
    );
  const queue = async (status: string) =>
    (await api!.admin().get(`/admin/v1/cash-receipts?status=${status}&limit=100`).expect(200)).body
      .data as AdminReceipt[];
  const reports = () => logger.lines.filter((line) => line.includes("cash receipt buyers' numbers"));
  const createWithReceipt = async (merchant: TestMerchant, cashReceipt: object) =>
    (
      await api!
        .as(merchant)
        .post('/v1/payments')
        .set('Idempotency-Key', idemKey())
        .send(paymentBody({ amount: 20_000, cashReceipt }))
        .expect(201)
    ).body.data.id as string;

  it('re-seals the numbers of requests and receipts under the new key; the operator reads them before and after', async () => {
    let current = await start({ SECRETS_KEY: oldKey.toString('base64') });
    const live = await current.merchantWithKey('live', { live: true });
    const test = await current.merchantWithKey('test');
    await current
      .admin()
      .patch(`/admin/v1/merchants/${live.merchantId}`)
      .send({ cashReceiptRequired: true })
      .expect(200);

    // Asked at create and not yet paid: the number waits on the payment.
    const waiting = await createWithReceipt(live, MOBILE);
    // Asked at create and paid: the live receipt waits for the operator.
    const paidWithRequest = await createWithReceipt(live, BUSINESS);
    await current.admin().post(`/admin/v1/payments/${paidWithRequest}/confirm-receipt`).expect(200);
    // Asked for after completion.
    const askedAfter = await completedPayment(current, live, 30_000, true);
    await current.as(live).post(`/v1/payments/${askedAfter}/cash-receipts`).send(CARD).expect(201);
    // Self-issued to the tax office's own number: nothing sealed, nothing to move.
    const selfIssued = await completedPayment(current, live, 100_000, true);
    // Test mode: issued at once, and a refund's cancel receipt shares the buyer.
    const testPayment = await createWithReceipt(test, TEST_MOBILE);
    await current.as(test).post(`/v1/test-helpers/payments/${testPayment}/complete`).expect(200);
    await refundsClient(current, test).create(testPayment, { amount: 5_000 }).expect(201);

    const before = await sealedNumbers();
    // Four payments' requests, two live receipts, the test issue receipt and its cancel receipt.
    expect(before.size).toBe(8);
    for (const sealed of before.values()) expect(sealed).toMatch(new RegExp(`^v1:${secretsKeyId(oldKey)}:`));
    expect(new Map((await queue('pending')).map((receipt) => [receipt.paymentId, receipt.identityNumber]))).toEqual(
      new Map([
        [paidWithRequest, BUSINESS_DIGITS],
        [askedAfter, CARD_DIGITS],
        [selfIssued, '0100001234'],
      ]),
    );

    current = await start({ SECRETS_KEY: newKey.toString('base64'), SECRETS_KEY_PREVIOUS: oldKey.toString('base64') });
    await current.app.get(CashReceiptIdentitiesRekeyer).runOnce();
    const after = await sealedNumbers();
    expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
    for (const sealed of after.values()) expect(sealed).toMatch(new RegExp(`^v1:${secretsKeyId(newKey)}:`));
    // Moved, but the idempotency fingerprints of the three creates and the refund cannot: the previous key is still needed.
    expect(reports()).toEqual([
      expect.stringMatching(
        /^log re-encrypted 8 cash receipt buyers' numbers; 0 cash receipt buyers' numbers still under SECRETS_KEY_PREVIOUS .*; 4 idempotency keys .* still fingerprinted under the previous key: keep SECRETS_KEY_PREVIOUS until \d{4}-/,
      ),
    ]);

    // Once they expired, the report says the previous key can go.
    await current.sql(`UPDATE idempotency_keys SET expires_at = now() - interval '1 second'`);
    await current.app.get(CashReceiptIdentitiesRekeyer).runOnce();
    expect(reports().at(-1)).toMatch(
      /^log re-encrypted 0 cash receipt buyers' numbers; .*cash receipts no longer need SECRETS_KEY_PREVIOUS/,
    );

    current = await start({ SECRETS_KEY: newKey.toString('base64') });
    // The request made before the rotation becomes a receipt whose number opens under the new key alone.
    await current.admin().post(`/admin/v1/payments/${waiting}/confirm-receipt`).expect(200);
    expect(new Map((await queue('pending')).map((receipt) => [receipt.paymentId, receipt.identityNumber]))).toEqual(
      new Map([
        [paidWithRequest, BUSINESS_DIGITS],
        [askedAfter, CARD_DIGITS],
        [selfIssued, '0100001234'],
        [waiting, MOBILE_DIGITS],
      ]),
    );
    const issued = (await queue('issued'))
      .map(({ paymentId, transactionType, identityNumber }) => ({ paymentId, transactionType, identityNumber }))
      .sort((a, b) => a.transactionType.localeCompare(b.transactionType));
    expect(issued).toEqual([
      { paymentId: testPayment, transactionType: 'cancel', identityNumber: TEST_MOBILE_DIGITS },
      { paymentId: testPayment, transactionType: 'issue', identityNumber: TEST_MOBILE_DIGITS },
    ]);

    // No number, whole, in anything the API logged across the three runs.
    const logged = [...everyLine, ...logger.lines].join('\n');
    for (const digits of [MOBILE_DIGITS, BUSINESS_DIGITS, CARD_DIGITS, TEST_MOBILE_DIGITS])
      expect(logged).not.toContain(digits);
  });
});
