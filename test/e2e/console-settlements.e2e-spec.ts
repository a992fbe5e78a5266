import { addBusinessDays } from '../../apps/payments-api/src/core/ledger/business-days';
import { settlementAmounts } from '../../apps/payments-api/src/core/ledger/settlement-calculation';
import { ConsoleClient, approvedMerchant } from '../support/console-client';
import { PaymentsApiHarness, paymentBody } from '../support/payments-api.harness';

/** A new merchant's fee (DEFAULT_FEE_BPS). */
const FEE_BPS = 250;

const won = (amount: number) => `₩${amount.toLocaleString('en-US')}`;

/** Payment ids linked from a settlements page, in order. */
const listed = (html: string) =>
  [...html.matchAll(/href="\/console\/payments\/(pay_\w+)\?mode=\w+"/g)].map((m) => m[1]);
const nextHref = (html: string) => /href="([^"]+)" rel="next"/.exec(html)?.[1].replace(/&amp;/g, '&');
const rowOf = (html: string, paymentId: string) => {
  const start = html.indexOf(`/console/payments/${paymentId}?`);
  if (start < 0) throw new Error(`${paymentId} is not on the page`);
  return html.slice(html.lastIndexOf('<tr>', start), html.indexOf('</tr>', start));
};

describe('merchant console /console/settlements', () => {
  let api: PaymentsApiHarness;

  beforeAll(async () => {
    api = await PaymentsApiHarness.start();
  });
  afterAll(() => api.stop());

  /** A completed test payment of that amount, its settlement record moved to the given sales date. */
  async function settled(merchant: { key: string }, amount: number, salesDate?: string, completedAt?: string) {
    const created = await api
      .as(merchant)
      .post('/v1/payments')
      .set('Idempotency-Key', `settlements-${Math.random()}`)
      .send(paymentBody({ amount }))
      .expect(201);
    const payment = created.body.data as { id: string; orderId: string };
    await api.as(merchant).post(`/v1/test-helpers/payments/${payment.id}/complete`).expect(200);
    // Completion writes the record for today in Seoul; fixed dates keep the checks off the clock.
    if (salesDate) {
      await api.sql(
        `UPDATE settlements SET sales_date = $2, payout_date = $3, completed_at = $4
         WHERE payment_id = $1`,
        [payment.id, salesDate, addBusinessDays(salesDate, 2).date, completedAt ?? `${salesDate}T03:00:00Z`],
      );
    }
    return { ...payment, amount, ...settlementAmounts(amount, FEE_BPS) };
  }

  /**
   * The merchant's payment ids in completion order, ties by id as the database sorts them (its
   * collation decides): newest first on the console's pages, oldest first (ledger order) in the CSV.
   */
  async function listOrder(merchantId: string, salesDate?: string, direction: 'ASC' | 'DESC' = 'DESC') {
    const rows = await api.sql<{ payment_id: string }>(
      `SELECT payment_id FROM settlements WHERE merchant_id = $1 AND ($2::date IS NULL OR sales_date = $2)
       ORDER BY sales_date ${direction}, completed_at ${direction}, payment_id ${direction}`,
      [merchantId, salesDate ?? null],
    );
    return rows.map((row) => row.payment_id);
  }

  it('lists the merchant settlements with fee, VAT and net, totals one date and exports it as CSV', async () => {
    const shop = await approvedMerchant(api, { name: 'Settle <Shop>' });
    const client = await ConsoleClient.login(api, shop.email);
    const a = await settled(shop, 15000, '2026-03-09', '2026-03-09T06:30:00Z');
    const b = await settled(shop, 9999, '2026-03-09');
    const c = await settled(shop, 123457, '2026-03-10');
    const day9 = (await listOrder(shop.merchantId, '2026-03-09')).map((id) => [a, b].find((p) => p.id === id)!);
    const day9Ledger = (await listOrder(shop.merchantId, '2026-03-09', 'ASC')).map((id) =>
      [a, b].find((p) => p.id === id)!,
    );

    const all = await client.get('/console/settlements').expect(200);
    expect(all.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(all.headers['cache-control']).toBe('no-store');
    expect(all.text).not.toContain('<script');
    expect(all.text).toContain('Settle &lt;Shop&gt;');
    // In the nav between Payments and Developers, marked as the current page.
    expect(all.text).toMatch(
      /href="\/console\/payments"\s*>Payments<\/a>\s*<a href="\/console\/settlements" aria-current="page">Settlements<\/a>\s*<a href="\/console\/developers"/,
    );
    // By sales date, then payment id.
    expect(listed(all.text)).toEqual([c.id, ...day9.map((p) => p.id)]);
    for (const payment of [a, b, c]) {
      const row = rowOf(all.text, payment.id);
      expect(row).toContain(payment.orderId);
      expect(row).toContain(won(payment.amount));
      expect(row).toContain(`${won(payment.feeAmount)} <span class="muted">(2.50%)</span>`);
      expect(row).toContain(won(payment.vatAmount));
      expect(row).toContain(won(payment.netAmount));
    }
    // 9,999 × 2.5% = 249.975 → fee ₩249, VAT ₩24, net ₩9,726: the rounding goes to the merchant.
    expect(b.netAmount).toBe(9726);
    expect(rowOf(all.text, a.id)).toMatch(
      /<time datetime="2026-03-09T06:30:00.000Z" class="nowrap">2026-03-09 15:30:00 KST/,
    );
    // No single date: no totals, no CSV.
    expect(all.text).not.toContain('Total of');
    expect(all.text).not.toContain('Download CSV');

    const one = await client.get('/console/settlements?date=2026-03-09').expect(200);
    expect(listed(one.text)).toEqual(day9.map((p) => p.id));
    expect(one.text).toContain('value="2026-03-09"');
    const totals = one.text.slice(one.text.indexOf('<tfoot>'), one.text.indexOf('</tfoot>'));
    expect(totals).toContain('Total of 2026-03-09 (2 records)');
    for (const field of ['amount', 'feeAmount', 'vatAmount', 'netAmount'] as const) {
      expect(totals).toContain(won(a[field] + b[field]));
    }
    expect(one.text).toContain(
      'href="/console/settlements/export?mode=test&amp;date=2026-03-09" download>Download CSV',
    );
    // A one-day range is the same date.
    const range = await client.get('/console/settlements?from=2026-03-10&to=2026-03-10').expect(200);
    expect(listed(range.text)).toEqual([c.id]);
    expect(range.text).toContain('Total of 2026-03-10 (1 record)');
    const wide = await client.get('/console/settlements?from=2026-03-09&to=2026-03-10').expect(200);
    expect(listed(wide.text)).toHaveLength(3);
    expect(wide.text).not.toContain('Total of');
    const none = await client.get('/console/settlements?date=2026-03-11').expect(200);
    expect(none.text).toContain('No test settlements on 2026-03-11.');

    const csv = await client.get('/console/settlements/export?mode=test&date=2026-03-09').expect(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toMatch(
      /^attachment; filename="?payhook-settlements-2026-03-09-test\.csv"?$/,
    );
    expect(csv.headers['cache-control']).toBe('no-store');
    const lines = csv.text.split('\r\n');
    expect(lines[0]).toBe(
      'payment_id,order_id,sales_date,payout_date,completed_at,currency,gross_amount,fee_bps,fee_amount,vat_amount,net_amount,type,refund_id,payout_status',
    );
    expect(lines.slice(1, -1).map((line) => line.split(','))).toEqual(
      day9Ledger.map((p) => [
        p.id,
        p.orderId,
        '2026-03-09',
        '2026-03-11',
        expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
        'KRW',
        String(p.amount),
        String(FEE_BPS),
        String(p.feeAmount),
        String(p.vatAmount),
        String(p.netAmount),
        'payment',
        '',
        'scheduled',
      ]),
    );
    expect(lines.at(-1)).toBe('');
    // The same file as the API's export.
    const fromApi = await api.as(shop).get('/v1/settlements/export?date=2026-03-09').expect(200);
    expect(csv.text).toBe(fromApi.text);

    // Links lead to the payment's console page.
    await client.get(`/console/payments/${a.id}?mode=test`).expect(200);
  });

  it('records a real completion under its sales date in Seoul', async () => {
    const shop = await approvedMerchant(api, { timeZone: 'America/New_York' });
    const client = await ConsoleClient.login(api, shop.email);
    const payment = await settled(shop, 50000);
    const [row] = await api.sql<{ sales_date: string; completed_at: Date }>(
      `SELECT to_char(sales_date, 'YYYY-MM-DD') AS sales_date, completed_at FROM settlements WHERE payment_id = $1`,
      [payment.id],
    );
    const page = await client.get(`/console/settlements?date=${row.sales_date}`).expect(200);
    expect(listed(page.text)).toEqual([payment.id]);
    expect(page.text).toContain(`Total of ${row.sales_date} (1 record)`);
    expect(rowOf(page.text, payment.id)).toContain(won(payment.netAmount));
    // Sales dates stay Seoul days; the completion time is in the merchant's zone.
    expect(page.text).toContain('calendar days in Asia/Seoul');
    expect(rowOf(page.text, payment.id)).toContain(`datetime="${row.completed_at.toISOString()}"`);
    expect(rowOf(page.text, payment.id)).toMatch(/ E[SD]T<\/time>/);
  });

  it('pages with the cursor and totals the whole date across pages', async () => {
    const shop = await approvedMerchant(api);
    const client = await ConsoleClient.login(api, shop.email);
    const payments = [];
    for (let i = 0; i < 26; i++) payments.push(await settled(shop, 1000 + i, '2026-04-01'));
    const ids = await listOrder(shop.merchantId);
    expect([...ids].sort()).toEqual(payments.map((p) => p.id).sort());
    const net = payments.reduce((sum, p) => sum + p.netAmount, 0);

    const first = await client.get('/console/settlements?date=2026-04-01').expect(200);
    expect(listed(first.text)).toEqual(ids.slice(0, 25));
    expect(first.text).toContain('Total of 2026-04-01 (26 records, all pages)');
    expect(first.text).toContain(won(net));
    const second = await client.get(nextHref(first.text)!).expect(200);
    expect(listed(second.text)).toEqual(ids.slice(25));
    expect(second.text).toContain('Total of 2026-04-01 (26 records, all pages)');
    expect(second.text).toContain('First page');
    expect(nextHref(second.text)).toBeUndefined();

    const unfiltered = await client.get('/console/settlements').expect(200);
    const rest = await client.get(nextHref(unfiltered.text)!).expect(200);
    expect([...listed(unfiltered.text), ...listed(rest.text)]).toEqual(ids);
  });

  it("shows the console mode's records only, and never another merchant's", async () => {
    const shop = await approvedMerchant(api);
    const other = await approvedMerchant(api, { name: 'Other Shop' });
    const client = await ConsoleClient.login(api, shop.email);
    const otherClient = await ConsoleClient.login(api, other.email);
    const ours = await settled(shop, 20000, '2026-05-04');

    const testPage = await client.get('/console/settlements').expect(200);
    expect(testPage.text).toMatch(/<a href="\/console\/settlements\?mode=test" aria-current="page">Test<\/a>/);
    expect(listed(testPage.text)).toEqual([ours.id]);
    const live = await client.get('/console/settlements?mode=live&date=2026-05-04').expect(200);
    expect(listed(live.text)).toEqual([]);
    expect(live.text).toContain('No live settlements on 2026-05-04.');
    const liveCsv = await client.get('/console/settlements/export?mode=live&date=2026-05-04').expect(200);
    expect(liveCsv.headers['content-disposition']).toContain('payhook-settlements-2026-05-04-live.csv');
    expect(liveCsv.text.split('\r\n')).toHaveLength(2);

    for (const mode of ['test', 'live']) {
      for (const path of [`/console/settlements?mode=${mode}`, `/console/settlements?mode=${mode}&date=2026-05-04`]) {
        const page = await otherClient.get(path).expect(200);
        expect(page.text).not.toContain(ours.id);
        expect(page.text).not.toContain(ours.orderId);
      }
      const csv = await otherClient.get(`/console/settlements/export?mode=${mode}&date=2026-05-04`).expect(200);
      expect(csv.text).not.toContain(ours.id);
      expect(csv.text.split('\r\n')).toHaveLength(2);
    }
    // A cursor naming our record means nothing in their console.
    const cursor = Buffer.from(JSON.stringify(['2026-05-04', ours.id])).toString('base64url');
    const stolen = await otherClient.get(`/console/settlements?cursor=${cursor}`).expect(400);
    expect(stolen.text).toContain('page link is not valid');
    expect(stolen.text).not.toContain(ours.orderId);
  });

  it('answers bad filters with a console page, never a 500', async () => {
    const shop = await approvedMerchant(api);
    const client = await ConsoleClient.login(api, shop.email);
    const refused: [string, string][] = [
      ['/console/settlements?date=2026-02-30', '"Sales date" must be a date such as 2026-11-21.'],
      ['/console/settlements?date=yesterday', '"Sales date" must be a date such as 2026-11-21.'],
      ['/console/settlements?date=2026-3-9', '"Sales date" must be a date such as 2026-11-21.'],
      ['/console/settlements?from=2026-13-01', '"From" must be a date'],
      ['/console/settlements?to=%27%3B%20DROP%20TABLE', '"To" must be a date'],
      ['/console/settlements?from=2026-03-10&to=2026-03-09', '"From" must not be after "To".'],
      ['/console/settlements?date=2026-03-09&from=2026-03-01', 'Choose one sales date or a range, not both.'],
      ['/console/settlements?cursor=not*a*cursor', 'page link is not valid'],
      [`/console/settlements?cursor=${Buffer.from('["2026-02-30","x"]').toString('base64url')}`, 'page link'],
      ['/console/settlements/export?date=2026-02-30', '"Sales date" must be a date such as 2026-11-21.'],
      ['/console/settlements/export?date=%3Cb%3E', '"Sales date" must be a date'],
      ['/console/settlements/export', 'Choose a sales date to download its CSV.'],
    ];
    for (const [path, message] of refused) {
      const page = await client.get(path).expect(400);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.text).toContain('<h1>Settlements</h1>');
      expect(page.text).toContain(`<p class="error" role="alert">`);
      expect(page.text).toContain(message.replace(/"/g, '&quot;'));
      expect(page.text).not.toContain('Something went wrong');
      expect(page.text).not.toContain('<b>');
    }
  });

  it('sends requests without a session to the login form', async () => {
    for (const path of ['/console/settlements', '/console/settlements/export?date=2026-03-09']) {
      const response = await api.http().get(path).expect(303);
      expect(response.headers.location).toBe('/console/login');
    }
  });
});
