import { idemKey, rowCounts } from '../support/api-expectations';
import { PaymentsApiHarness, paymentBody, type TestMerchant } from '../support/payments-api.harness';
import { paymentsClient, type PaymentsClient } from '../support/payments-client';

describe('POST /v1/payments', () => {
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

  const create = (body: unknown, key = 'idem-' + Math.random()) => payments.create(body, key);

  it('creates a pending payment with a payUrl on PAY_URL and expiresAt after PAYMENT_TTL_SECONDS', async () => {
    const body = paymentBody();
    const before = Date.now();
    const response = await create(body).expect(201);
    const payment = response.body.data;
    expect(response.headers['request-id']).toMatch(/^req_/);
    expect(Object.keys(payment).sort()).toEqual([
      'amount',
      'currency',
      'expiresAt',
      'id',
      'orderId',
      'payUrl',
      'status',
    ]);
    expect(payment).toMatchObject({ orderId: body.orderId, amount: 15000, currency: 'KRW', status: 'pending' });
    expect(payment.id).toMatch(/^pay_[0-9A-Za-z]{20,}$/);
    expect(payment.payUrl).toMatch(/^http:\/\/pay\.test\/p\/[A-Za-z0-9_-]{22,}$/);
    expect(payment.payUrl).not.toContain(payment.id.slice(4));
    // PAYMENT_TTL_SECONDS (1800) from the create, which happened between `before` and now (however
    // slowly a busy machine answered); 1 s either side for the database's clock.
    const expiresAt = new Date(payment.expiresAt).getTime();
    expect(expiresAt).toBeGreaterThanOrEqual(before + 1800_000 - 1_000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 1800_000 + 1_000);
  });

  it('replays the original response byte for byte for the same key and body', async () => {
    const body = paymentBody();
    const first = await create(body, 'same-key').expect(201);
    const second = await create(body, 'same-key').expect(201);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(second.text).toBe(first.text);
    const rows = await api.sql('SELECT id FROM payments WHERE merchant_id = $1', [merchant.merchantId]);
    expect(rows).toHaveLength(1);
  });

  it('answers with a JSON { data } envelope and stores the payment for this merchant in test mode', async () => {
    const body = paymentBody({ customerId: 'customer-42', amount: 2500 });
    const response = await create(body).expect(201);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(Object.keys(response.body)).toEqual(['data']);
    const [row] = await api.sql<Record<string, unknown>>(
      'SELECT merchant_id, livemode, order_id, customer_id, amount, currency, status, return_url FROM payments WHERE id = $1',
      [response.body.data.id],
    );
    expect(row).toEqual({
      merchant_id: merchant.merchantId,
      livemode: false,
      order_id: body.orderId,
      customer_id: 'customer-42',
      amount: '2500',
      currency: 'KRW',
      status: 'pending',
      return_url: body.returnUrl,
    });
  });

  it.each<[string, Record<string, unknown>]>([
    ['an orderId of 64 characters using every allowed kind', { orderId: `Aa0_.:-${'x'.repeat(57)}` }],
    ['an orderId of 1 character', { orderId: `${Date.now() % 10}` }],
    ['a customerId of 128 characters', { customerId: 'c'.repeat(128) }],
    ['a customerId in Korean with spaces', { customerId: '홍길동 고객 1' }],
    ['the smallest amount, 1', { amount: 1 }],
    ['the largest amount, 10,000,000,000', { amount: 10_000_000_000 }],
    ['a returnUrl of exactly 2,048 characters', { returnUrl: `https://shop.example/${'r'.repeat(2048 - 21)}` }],
    ['an http returnUrl with a test key', { returnUrl: 'http://localhost:8080/return' }],
  ])('accepts %s', async (_description, overrides) => {
    const body = paymentBody(overrides);
    const response = await create(body);
    expect(response.status).toBe(201);
    expect(response.body.data).toMatchObject({ orderId: body.orderId, amount: body.amount, status: 'pending' });
  });

  it('gives each payment its own id and payUrl', async () => {
    const answers = await Promise.all(Array.from({ length: 5 }, () => create(paymentBody())));
    expect(answers.map((answer) => answer.status)).toEqual([201, 201, 201, 201, 201]);
    expect(new Set(answers.map((answer) => answer.body.data.id as string)).size).toBe(5);
    expect(new Set(answers.map((answer) => answer.body.data.payUrl as string)).size).toBe(5);
    await expect(rowCounts(api, merchant.merchantId)).resolves.toEqual({ payments: 5, idempotencyKeys: 5 });
  });

  it('creates live payments with a live key of a live merchant', async () => {
    const live = await api.merchantWithKey('live', { live: true });
    const response = await paymentsClient(api, live.key).create(paymentBody(), idemKey());
    expect(response.status).toBe(201);
    const [row] = await api.sql<{ livemode: boolean }>('SELECT livemode FROM payments WHERE id = $1', [
      response.body.data.id,
    ]);
    expect(row.livemode).toBe(true);
  });
});
