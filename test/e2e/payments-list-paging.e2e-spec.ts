import { PaymentsApiHarness, paymentBody, type TestMerchant } from '../support/payments-api.harness';
import { paymentsClient, type PaymentsClient } from '../support/payments-client';

interface ListedPayment {
  id: string;
  createdAt: string;
}

/** Newest first: createdAt desc, then id desc. */
const byListOrder = (a: ListedPayment, b: ListedPayment) =>
  a.createdAt !== b.createdAt ? (a.createdAt < b.createdAt ? 1 : -1) : a.id < b.id ? 1 : a.id > b.id ? -1 : 0;

/** Keyset cursor on (createdAt, id), stable while new payments arrive. */
describe('GET /v1/payments paging', () => {
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

  const createPayments = async (count: number): Promise<string[]> => {
    const answers = await Promise.all(Array.from({ length: count }, () => payments.create(paymentBody())));
    expect(answers.every((answer) => answer.status === 201)).toBe(true);
    return answers.map((answer) => answer.body.data.id as string);
  };

  /** Puts the merchant's payments in groups of three sharing one createdAt, so ids must break ties. */
  const groupCreatedAt = (base: string) =>
    api.sql(
      `UPDATE payments p SET created_at = $2::timestamptz + floor((s.n - 1) / 3) * interval '1 second'
       FROM (SELECT id, row_number() OVER (ORDER BY id) AS n FROM payments WHERE merchant_id = $1) s
       WHERE p.id = s.id`,
      [merchant.merchantId, base],
    );

  it('pages 45 payments by 10 seeing each once in order while new payments arrive between pages', async () => {
    await createPayments(45);
    await groupCreatedAt(new Date(Date.now() - 3600_000).toISOString());
    const everything = await payments.list({ limit: '100' });
    const expected = [...(everything.body.data as ListedPayment[])].sort(byListOrder).map((payment) => payment.id);
    expect(expected).toHaveLength(45);
    expect(everything.body.data.map((payment: ListedPayment) => payment.id)).toEqual(expected);

    const seen: string[] = [];
    const arrivedMeanwhile: string[] = [];
    const pages: { size: number; hasMore: boolean; nextCursor: unknown }[] = [];
    let cursor: string | null = null;
    do {
      const page = await payments.list(cursor ? { limit: '10', cursor } : { limit: '10' });
      expect(page.status).toBe(200);
      seen.push(...page.body.data.map((payment: ListedPayment) => payment.id));
      pages.push({ size: page.body.data.length, hasMore: page.body.hasMore, nextCursor: page.body.nextCursor });
      cursor = page.body.nextCursor;
      arrivedMeanwhile.push(...(await createPayments(2)));
    } while (cursor !== null && pages.length < 10);

    expect(seen).toEqual(expected);
    expect(new Set(seen).size).toBe(45);
    expect(seen.filter((id) => arrivedMeanwhile.includes(id))).toEqual([]);
    expect(pages).toEqual([
      { size: 10, hasMore: true, nextCursor: expect.any(String) },
      { size: 10, hasMore: true, nextCursor: expect.any(String) },
      { size: 10, hasMore: true, nextCursor: expect.any(String) },
      { size: 10, hasMore: true, nextCursor: expect.any(String) },
      { size: 5, hasMore: false, nextCursor: null },
    ]);

    // The newcomers are on a fresh first page.
    const fresh = await payments.list({ limit: '10' });
    expect(fresh.body.data.map((payment: ListedPayment) => payment.id).sort()).toEqual([...arrivedMeanwhile].sort());
  });

  it('ends with hasMore false and nextCursor null when the last page is exactly full', async () => {
    await createPayments(20);
    const first = await payments.list({ limit: '10' });
    expect(first.body).toMatchObject({ hasMore: true, nextCursor: expect.any(String) });
    const second = await payments.list({ limit: '10', cursor: first.body.nextCursor });
    expect(second.body.data).toHaveLength(10);
    expect(second.body).toMatchObject({ hasMore: false, nextCursor: null });
    const ids = [...first.body.data, ...second.body.data].map((payment: ListedPayment) => payment.id);
    expect(new Set(ids).size).toBe(20);
  });

  it('keeps filters applied across pages', async () => {
    const ids = await createPayments(7);
    await api.sql(`UPDATE payments SET status = 'failed' WHERE id = ANY($1)`, [ids.slice(0, 5)]);
    const first = await payments.list({ status: 'failed', limit: '3' });
    expect(first.body).toMatchObject({ hasMore: true });
    const second = await payments.list({ status: 'failed', limit: '3', cursor: first.body.nextCursor });
    expect(second.body).toMatchObject({ hasMore: false, nextCursor: null });
    const listed = [...first.body.data, ...second.body.data].map((payment: ListedPayment) => payment.id);
    expect(listed.sort()).toEqual(ids.slice(0, 5).sort());
  });
});
