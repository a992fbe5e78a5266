import { randomUUID } from 'node:crypto';
import { expectApiError } from '../support/api-expectations';
import { PaymentsApiHarness, paymentBody, type TestMerchant } from '../support/payments-api.harness';

describe('settlement records: GET /v1/settlements', () => {
  let api: PaymentsApiHarness;
  let merchant: TestMerchant;

  beforeAll(async () => {
    api = await PaymentsApiHarness.start();
  });
  afterAll(() => api.stop());
  beforeEach(async () => {
    merchant = await api.merchantWithKey('test');
  });

  async function completed(amount: number): Promise<string> {
    const created = await api
      .as(merchant)
      .post('/v1/payments')
      .set('Idempotency-Key', randomUUID())
      .send(paymentBody({ amount }))
      .expect(201);
    const id = created.body.data.id as string;
    await api.as(merchant).post(`/v1/test-helpers/payments/${id}/complete`).expect(200);
    return id;
  }

  /** Moves a record to a chosen sales date, as if the payment had completed then. */
  async function backdate(paymentId: string, salesDate: string, payoutDate: string) {
    await api.sql('UPDATE settlements SET sales_date = $2, payout_date = $3 WHERE payment_id = $1', [
      paymentId,
      salesDate,
      payoutDate,
    ]);
  }

  it('records every completed payment once, with the merchant fee, VAT and Seoul sales date', async () => {
    const id = await completed(15_000);
    const list = await api.as(merchant).get('/v1/settlements').expect(200);
    expect(list.body).toEqual({ data: [expect.any(Object)], hasMore: false, nextCursor: null });
    const [record] = list.body.data;
    const [payment] = await api.sql<{ completed_at: Date }>('SELECT completed_at FROM payments WHERE id = $1', [id]);
    const salesDate = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Seoul' }).format(payment.completed_at);
    expect(record).toEqual({
      type: 'payment',
      paymentId: id,
      refundId: null,
      orderId: expect.any(String),
      livemode: false,
      currency: 'KRW',
      grossAmount: 15_000,
      feeBps: 250,
      feeAmount: 375,
      vatAmount: 37,
      netAmount: 14_588,
      salesDate,
      payoutStatus: 'scheduled',
      payoutDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      payoutRule: 'kr_public_holidays',
      completedAt: payment.completed_at.toISOString(),
    });
    expect(record.payoutDate > salesDate).toBe(true);
    expect([0, 6]).not.toContain(new Date(`${record.payoutDate}T00:00:00Z`).getUTCDay());
  });

  it("uses the merchant's own terms, set by the operator, for payments completed after the change", async () => {
    const before = await completed(10_000);
    const patched = await api
      .admin()
      .patch(`/admin/v1/merchants/${merchant.merchantId}`)
      .send({ feeBps: 330, settlementDelayDays: 5 })
      .expect(200);
    expect(patched.body.data).toMatchObject({ feeBps: 330, settlementDelayDays: 5 });
    const after = await completed(10_000);
    const list = await api.as(merchant).get('/v1/settlements?limit=100').expect(200);
    const byPayment = new Map((list.body.data as { paymentId: string }[]).map((row) => [row.paymentId, row]));
    expect(byPayment.get(before)).toMatchObject({ feeBps: 250, feeAmount: 250, vatAmount: 25, netAmount: 9_725 });
    expect(byPayment.get(after)).toMatchObject({ feeBps: 330, feeAmount: 330, vatAmount: 33, netAmount: 9_637 });
  });

  it('filters by one sales date or an inclusive range, and pages in a stable order', async () => {
    const ids = await Promise.all([completed(1_000), completed(2_000), completed(3_000), completed(4_000)]);
    await backdate(ids[0], '2026-11-19', '2026-11-23');
    await backdate(ids[1], '2026-11-20', '2026-11-24');
    await backdate(ids[2], '2026-11-20', '2026-11-24');
    await backdate(ids[3], '2026-11-23', '2026-11-25');

    const day = await api.as(merchant).get('/v1/settlements?date=2026-11-20').expect(200);
    expect(day.body.data.map((row: { paymentId: string }) => row.paymentId).sort()).toEqual([ids[1], ids[2]].sort());

    const range = await api.as(merchant).get('/v1/settlements?from=2026-11-20&to=2026-11-23').expect(200);
    expect(range.body.data).toHaveLength(3);

    const seen = (await pagedThrough('/v1/settlements', 1)).map(
      (row) => `${row.salesDate} ${row.completedAt} ${row.paymentId}`,
    );
    expect(seen).toHaveLength(4);
    expect([...seen].sort()).toEqual(seen);
  });

  it("lists and exports one day's records in the order their payments completed, not by payment id", async () => {
    const ids = await Promise.all([completed(1_000), completed(2_000), completed(3_000), completed(4_000)]);
    // Completion times in the reverse of id order (as the database sorts ids), all on one sales date.
    const byId = (
      await api.sql<{ payment_id: string }>(
        'SELECT payment_id FROM settlements WHERE payment_id = ANY($1) ORDER BY payment_id',
        [ids],
      )
    ).map((row) => row.payment_id);
    const completedAt = ['2026-11-20T09:00:00.000Z', '2026-11-20T07:00:00.000Z', '2026-11-20T05:00:00.000Z'];
    for (const [i, id] of byId.slice(0, 3).entries()) {
      await api.sql('UPDATE settlements SET sales_date = $2, completed_at = $3 WHERE payment_id = $1', [
        id,
        '2026-11-20',
        completedAt[i],
      ]);
    }
    // The same completion time as another: the id breaks the tie.
    await api.sql('UPDATE settlements SET sales_date = $2, completed_at = $3 WHERE payment_id = $1', [
      byId[3],
      '2026-11-20',
      completedAt[1],
    ]);
    const inCompletionOrder = [byId[2], byId[1], byId[3], byId[0]];

    const page = await api.as(merchant).get('/v1/settlements?date=2026-11-20').expect(200);
    expect(page.body.data.map((row: { paymentId: string }) => row.paymentId)).toEqual(inCompletionOrder);
    expect((await pagedThrough('/v1/settlements?date=2026-11-20', 1)).map((row) => row.paymentId)).toEqual(
      inCompletionOrder,
    );
    const csv = await api.as(merchant).get('/v1/settlements/export?date=2026-11-20').expect(200);
    const [, ...rows] = csv.text.trimEnd().split('\r\n');
    expect(rows.map((row) => row.split(',')[0])).toEqual(inCompletionOrder);
  });

  /** Every record of a list, read page by page with its cursor. */
  async function pagedThrough(path: string, limit: number) {
    const rows: { paymentId: string; salesDate: string; completedAt: string }[] = [];
    let cursor: string | null = null;
    do {
      const separator = path.includes('?') ? '&' : '?';
      const page: { body: { data: typeof rows; nextCursor: string | null } } = await api
        .as(merchant)
        .get(`${path}${separator}limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`)
        .expect(200);
      rows.push(...page.body.data);
      cursor = page.body.nextCursor;
    } while (cursor);
    return rows;
  }

  it('exports one day as CSV whose rows add up', async () => {
    const ids = await Promise.all([completed(15_000), completed(9_990)]);
    for (const id of ids) await backdate(id, '2026-11-20', '2026-11-24');
    const csv = await api.as(merchant).get('/v1/settlements/export?date=2026-11-20').expect(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toMatch(
      /^attachment; filename="?payhook-settlements-2026-11-20-test\.csv"?$/,
    );
    const [header, ...rows] = csv.text.trimEnd().split('\r\n');
    expect(header).toBe(
      'payment_id,order_id,sales_date,payout_date,completed_at,currency,gross_amount,fee_bps,fee_amount,vat_amount,net_amount,type,refund_id,payout_status',
    );
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      const [, , salesDate, , , , gross, , fee, vat, net] = row.split(',');
      expect(salesDate).toBe('2026-11-20');
      expect(Number(fee) + Number(vat) + Number(net)).toBe(Number(gross));
    }
  });

  it('streams a day bigger than one read batch: every record once, in list order, never the whole day in memory', async () => {
    // 2,345 records: three batches of the export, with runs of equal completion times (the payment
    // id breaks those ties) across the batches' edges. Written directly: 2,345 API payments are slow.
    const count = 2_345;
    const run = randomUUID().replace(/-/g, '').slice(0, 8);
    const params = [merchant.merchantId, run, count];
    await api.sql(
      `INSERT INTO payments (id, merchant_id, livemode, order_id, customer_id, amount, currency, status, return_url,
                             pay_suffix, expires_at, created_at, completed_at, updated_at)
       SELECT 'pay_x' || $2 || lpad(n::text, 12, '0'), $1, false, 'order-' || $2 || '-' || n, 'customer-7', 10000,
              'KRW', 'completed', 'https://shop.example/return', 'sfx' || $2 || n, now(), now(), now(), now()
       FROM generate_series(1, $3::int) n`,
      params,
    );
    await api.sql(
      `INSERT INTO settlements (payment_id, merchant_id, livemode, order_id, gross_amount, fee_bps, fee_amount,
                                vat_amount, net_amount, sales_date, payout_date, completed_at)
       SELECT 'pay_x' || $2 || lpad(n::text, 12, '0'), $1, false, 'order-' || $2 || '-' || n, 10000, 250, 250, 25,
              9725, '2026-10-05', '2026-10-07', timestamptz '2026-10-04 16:00:00Z' + (($3::int - n) / 7) * interval '1 second'
       FROM generate_series(1, $3::int) n`,
      params,
    );
    const expected = await api.sql<{ payment_id: string }>(
      `SELECT payment_id FROM settlements WHERE merchant_id = $1 AND NOT livemode AND sales_date = '2026-10-05'
       ORDER BY completed_at, payment_id`,
      [merchant.merchantId],
    );

    const csv = await api.as(merchant).get('/v1/settlements/export?date=2026-10-05').expect(200);
    // Written as it is read: chunked, with no length known up front.
    expect(csv.headers['transfer-encoding']).toBe('chunked');
    expect(csv.headers['content-length']).toBeUndefined();
    const [, ...rows] = csv.text.trimEnd().split('\r\n');
    expect(rows.map((row) => row.split(',')[0])).toEqual(expected.map((row) => row.payment_id));
    expect(new Set(rows).size).toBe(count);
  });

  it("never shows another merchant's or the other mode's records", async () => {
    await completed(15_000);
    const other = await api.merchantWithKey('test');
    const list = await api.as(other).get('/v1/settlements').expect(200);
    expect(list.body.data).toEqual([]);
    const live = await api.issueKey(merchant.merchantId, 'live');
    await api.sql(`UPDATE merchants SET status = 'live' WHERE id = $1`, [merchant.merchantId]);
    expect((await api.as(live).get('/v1/settlements').expect(200)).body.data).toEqual([]);
  });

  it.each([
    ['?date=2026-02-30', 'date'],
    ['?date=20261120', 'date'],
    ['?date=0000-01-01', 'date'],
    ['?from=1969-12-31', 'from'],
    ['?date=2026-11-20&from=2026-11-01', 'date'],
    ['?from=2026-11-21&to=2026-11-20', 'from'],
    ['?limit=0', 'limit'],
    ['?cursor=bm9wZQ', 'cursor'],
    ['?status=completed', 'status'],
  ])('refuses %s with 400 naming %s', async (query, param) => {
    const answer = await api.as(merchant).get(`/v1/settlements${query}`);
    expect(answer.status).toBe(400);
    expectApiError(answer, { status: 400, code: answer.body.error.code, param });
  });

  it.each([{ feeBps: null }, { settlementDelayDays: null }, { feeBps: 5_001 }, { settlementDelayDays: 0 }])(
    'refuses the settlement terms %j and keeps the old ones',
    async (terms) => {
      const answer = await api.admin().patch(`/admin/v1/merchants/${merchant.merchantId}`).send(terms);
      expectApiError(answer, { status: 400, code: 'parameter_invalid', param: Object.keys(terms)[0] });
      const shown = await api.admin().get(`/admin/v1/merchants/${merchant.merchantId}`).expect(200);
      expect(shown.body.data).toMatchObject({ feeBps: 250, settlementDelayDays: 2 });
    },
  );

  it('needs a date for the export', async () => {
    expectApiError(await api.as(merchant).get('/v1/settlements/export'), {
      status: 400,
      code: 'parameter_missing',
      param: 'date',
    });
  });
});
