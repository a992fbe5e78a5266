import { expectApiError, rowCounts } from '../support/api-expectations';
import { PaymentsApiHarness, paymentBody, type TestMerchant } from '../support/payments-api.harness';
import { paymentsClient, type PaymentsClient } from '../support/payments-client';

/** "One order, one live payment". */
describe('One active payment per orderId', () => {
  let api: PaymentsApiHarness;
  let merchant: TestMerchant;
  let payments: PaymentsClient;

  beforeAll(async () => {
    api = await PaymentsApiHarness.start();
  });
  afterAll(() => api.stop());
  beforeEach(async () => {
    merchant = await api.merchantWithKey('test');
    payments = paymentsClient(api, merchant.key);
  });

  const createdPayment = async (body: Record<string, unknown>) => {
    const response = await payments.create(body);
    expect(response.status).toBe(201);
    return response.body.data.id as string;
  };

  it('refuses a second key for a pending orderId with 409 order_already_active naming the payment', async () => {
    const body = paymentBody();
    const firstId = await createdPayment(body);

    const second = await payments.create({ ...body, amount: 20000 });
    expectApiError(second, { status: 409, code: 'order_already_active' });
    expect(second.body.error.message).toContain(firstId);
    await expect(rowCounts(api, merchant.merchantId)).resolves.toEqual({ payments: 1, idempotencyKeys: 1 });
  });

  it('refuses a new payment for an order whose payment completed', async () => {
    const body = paymentBody();
    const firstId = await createdPayment(body);
    await api.sql(`UPDATE payments SET status = 'completed', completed_at = now() WHERE id = $1`, [firstId]);

    const second = await payments.create(body);
    expectApiError(second, { status: 409, code: 'order_already_active' });
    expect(second.body.error.message).toContain(firstId);
    await expect(rowCounts(api, merchant.merchantId)).resolves.toEqual({ payments: 1, idempotencyKeys: 1 });
  });

  it('allows a new payment for the order once the first one has expired (expires_at in the past)', async () => {
    const body = paymentBody();
    const firstId = await createdPayment(body);
    await api.sql(`UPDATE payments SET expires_at = now() - interval '1 second' WHERE id = $1`, [firstId]);

    const second = await payments.create(body);
    expect(second.status).toBe(201);
    expect(second.body.data).toMatchObject({ orderId: body.orderId, status: 'pending' });
    expect(second.body.data.id).not.toBe(firstId);
    const first = await payments.get(firstId);
    expect(first.body.data.status).toBe('expired');

    // The new payment now holds the order.
    const third = await payments.create(body);
    expectApiError(third, { status: 409, code: 'order_already_active' });
    expect(third.body.error.message).toContain(second.body.data.id);
  });

  it.each(['failed', 'canceled', 'expired'])(
    'allows a new payment for an order whose payment is %s',
    async (status) => {
      const body = paymentBody();
      const firstId = await createdPayment(body);
      await api.sql(`UPDATE payments SET status = $2 WHERE id = $1`, [firstId, status]);

      const second = await payments.create(body);
      expect(second.status).toBe(201);
      expect(second.body.data.id).not.toBe(firstId);
    },
  );

  it('lets only one of many concurrent creates for one orderId (different keys) win', async () => {
    const body = paymentBody();
    const answers = await Promise.all(Array.from({ length: 10 }, () => payments.create(body)));
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(1);
    for (const answer of answers.filter((a) => a.status !== 201)) {
      expectApiError(answer, { status: 409, code: 'order_already_active' });
    }
    await expect(rowCounts(api, merchant.merchantId)).resolves.toMatchObject({ payments: 1 });
  });

  it('keeps orders apart per merchant and per mode', async () => {
    const body = paymentBody();
    await createdPayment(body);
    const other = await api.merchantWithKey('test');
    const elsewhere = await paymentsClient(api, other.key).create(body);
    expect(elsewhere.status).toBe(201);

    const live = await api.merchantWithKey('live', { live: true });
    const { key: testKey } = await api.issueKey(live.merchantId, 'test');
    const inLive = await paymentsClient(api, live.key).create(body);
    const inTest = await paymentsClient(api, testKey).create(body);
    expect([inLive.status, inTest.status]).toEqual([201, 201]);
  });
});
