import { expectApiError, ISO_MILLIS_UTC } from '../support/api-expectations';
import { PaymentsApiHarness, paymentBody, type TestMerchant } from '../support/payments-api.harness';
import { paymentsClient, type PaymentsClient } from '../support/payments-client';

const PAYMENT_FIELDS = [
  'amount',
  'completedAt',
  'createdAt',
  'currency',
  'escrow',
  'expiresAt',
  'id',
  'livemode',
  'metadata',
  'orderId',
  'payUrl',
  'refundedAmount',
  'status',
  'suppliedAmount',
  'taxFreeAmount',
  'vat',
];

/** GET /v1/payments/{id} and GET /v1/payments with its filters. */
describe('GET /v1/payments and /v1/payments/{id}', () => {
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

  const createPayment = async (overrides: Record<string, unknown> = {}) => {
    const response = await payments.create(paymentBody(overrides));
    expect(response.status).toBe(201);
    return response.body.data as { id: string; orderId: string } & Record<string, unknown>;
  };
  const setRow = (id: string, assignments: string, params: unknown[] = []) =>
    api.sql(`UPDATE payments SET ${assignments} WHERE id = $1`, [id, ...params]);
  const listIds = async (query: Record<string, string>) => {
    const response = await payments.list(query);
    expect(response.status).toBe(200);
    return (response.body.data as { id: string }[]).map((payment) => payment.id);
  };

  it('gets a payment with createdAt, completedAt null and livemode false', async () => {
    const before = Date.now();
    const created = await createPayment();
    const response = await payments.get(created.id);
    expect(response.status).toBe(200);
    expect(Object.keys(response.body)).toEqual(['data']);
    const payment = response.body.data;
    expect(Object.keys(payment).sort()).toEqual(PAYMENT_FIELDS);
    expect(payment).toEqual({
      ...created,
      createdAt: expect.stringMatching(ISO_MILLIS_UTC),
      completedAt: null,
      livemode: false,
      refundedAmount: 0,
      // The VAT split of ₩15,000 without a tax-free part, no metadata, no escrow.
      taxFreeAmount: 0,
      vat: 1_364,
      suppliedAmount: 13_636,
      metadata: {},
      escrow: null,
    });
    expect(payment.expiresAt).toMatch(ISO_MILLIS_UTC);
    expect(new Date(payment.createdAt).getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(new Date(payment.createdAt).getTime()).toBeLessThanOrEqual(Date.now());
  });

  it('shows completedAt once a payment has completed', async () => {
    const created = await createPayment();
    await setRow(created.id, `status = 'completed', completed_at = '2030-01-02T03:04:05.678Z'`);
    const response = await payments.get(created.id);
    expect(response.body.data).toMatchObject({ status: 'completed', completedAt: '2030-01-02T03:04:05.678Z' });
  });

  it('answers 404 resource_not_found for an unknown payment id', async () => {
    const wellFormed = await payments.get('pay_000000000000000000000000');
    expectApiError(wellFormed, { status: 404, code: 'resource_not_found' });
    const garbage = await payments.get('not-a-payment-id');
    expectApiError(garbage, { status: 404, code: 'resource_not_found' });
  });

  it('lists newest first in the list envelope with the full payment resource', async () => {
    const first = await createPayment();
    const second = await createPayment();
    await setRow(first.id, `created_at = created_at - interval '1 second'`);
    const response = await payments.list();
    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(['data', 'hasMore', 'nextCursor']);
    expect(response.body).toMatchObject({ hasMore: false, nextCursor: null });
    expect(response.body.data.map((payment: { id: string }) => payment.id)).toEqual([second.id, first.id]);
    const [listed] = response.body.data;
    expect(Object.keys(listed).sort()).toEqual(PAYMENT_FIELDS);
    const got = await payments.get(second.id);
    expect(listed).toEqual(got.body.data);
  });

  it('lists nothing for a merchant without payments', async () => {
    const response = await payments.list();
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ data: [], hasMore: false, nextCursor: null });
  });

  it('uses a default page of 20 and honours limit', async () => {
    await Promise.all(Array.from({ length: 22 }, () => createPayment()));
    const defaultPage = await payments.list();
    expect(defaultPage.body.data).toHaveLength(20);
    expect(defaultPage.body.hasMore).toBe(true);
    expect(defaultPage.body.nextCursor).toEqual(expect.any(String));
    const limited = await payments.list({ limit: '3' });
    expect(limited.body.data).toHaveLength(3);
    const all = await payments.list({ limit: '100' });
    expect(all.body).toMatchObject({ hasMore: false, nextCursor: null });
    expect(all.body.data).toHaveLength(22);
  });

  it('filters by status, one or a comma list', async () => {
    const pending = await createPayment();
    const completed = await createPayment();
    const failed = await createPayment();
    const canceled = await createPayment();
    await setRow(completed.id, `status = 'completed', completed_at = now()`);
    await setRow(failed.id, `status = 'failed'`);
    await setRow(canceled.id, `status = 'canceled'`);

    await expect(listIds({ status: 'pending' })).resolves.toEqual([pending.id]);
    await expect(listIds({ status: 'completed' })).resolves.toEqual([completed.id]);
    await expect(listIds({ status: 'failed,canceled' })).resolves.toEqual(
      expect.arrayContaining([failed.id, canceled.id]),
    );
    await expect(listIds({ status: 'failed,canceled' })).resolves.toHaveLength(2);
    await expect(listIds({ status: 'completed,pending,completed' })).resolves.toHaveLength(2);
    await expect(listIds({ status: 'expired' })).resolves.toEqual([]);
  });

  it('shows a pending payment past expiresAt as expired on get and list, matching status=expired only', async () => {
    const overdue = await createPayment();
    const fresh = await createPayment();
    await setRow(overdue.id, `expires_at = now() - interval '1 second'`);

    const got = await payments.get(overdue.id);
    expect(got.body.data.status).toBe('expired');
    const listed = await payments.list();
    const statuses = Object.fromEntries(
      (listed.body.data as { id: string; status: string }[]).map((payment) => [payment.id, payment.status]),
    );
    expect(statuses).toEqual({ [overdue.id]: 'expired', [fresh.id]: 'pending' });
    await expect(listIds({ status: 'expired' })).resolves.toEqual([overdue.id]);
    await expect(listIds({ status: 'pending' })).resolves.toEqual([fresh.id]);
  });

  it('filters by orderId and by customerId', async () => {
    const a = await createPayment({ customerId: 'customer-a' });
    const b = await createPayment({ customerId: 'customer-b' });
    const b2 = await createPayment({ customerId: 'customer-b' });
    await expect(listIds({ orderId: a.orderId })).resolves.toEqual([a.id]);
    await expect(listIds({ orderId: 'no-such-order' })).resolves.toEqual([]);
    await expect(listIds({ customerId: 'customer-a' })).resolves.toEqual([a.id]);
    await expect(listIds({ customerId: 'customer-b' })).resolves.toEqual(expect.arrayContaining([b.id, b2.id]));
    await expect(listIds({ customerId: 'customer-b' })).resolves.toHaveLength(2);
    await expect(listIds({ customerId: 'customer-b', orderId: a.orderId })).resolves.toEqual([]);
  });

  it('filters by createdFrom (inclusive) and createdTo (exclusive)', async () => {
    const times = ['2026-01-01T00:00:00.000Z', '2026-01-02T00:00:00.000Z', '2026-01-03T00:00:00.000Z'];
    const [p1, p2, p3] = await Promise.all(times.map(() => createPayment()));
    for (const [i, payment] of [p1, p2, p3].entries()) await setRow(payment.id, 'created_at = $2', [times[i]]);

    await expect(listIds({ createdFrom: times[1] })).resolves.toEqual([p3.id, p2.id]);
    await expect(listIds({ createdTo: times[1] })).resolves.toEqual([p1.id]);
    await expect(listIds({ createdFrom: times[1], createdTo: times[2] })).resolves.toEqual([p2.id]);
    await expect(listIds({ createdFrom: '2026-01-02T00:00:00.001Z' })).resolves.toEqual([p3.id]);
    await expect(listIds({ createdTo: '2026-01-02T00:00:00.001Z' })).resolves.toEqual([p2.id, p1.id]);
    // A date alone and a date-time with an offset name instants too.
    await expect(listIds({ createdFrom: '2026-01-02', createdTo: '2026-01-03' })).resolves.toEqual([p2.id]);
    await expect(listIds({ createdFrom: '2026-01-02T09:00:00+09:00' })).resolves.toEqual([p3.id, p2.id]);
  });
});
