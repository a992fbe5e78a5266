import { randomUUID } from 'node:crypto';
import { ConsoleClient, approvedMerchant } from '../support/console-client';
import { openVoucherPage } from '../support/pay-screen-client';
import { PaymentsApiHarness, paymentBody } from '../support/payments-api.harness';

type Merchant = Awaited<ReturnType<typeof approvedMerchant>>;

/** The Money card of a console payment page. */
const moneyCardOf = (html: string) => {
  const start = html.indexOf('<h2 id="money">Money</h2>');
  if (start < 0) throw new Error('no Money card on the page');
  return html.slice(start, html.indexOf('</section>', start));
};
/** The part of the card under one of its headings. */
const partOf = (card: string, heading: string) => {
  const start = card.indexOf(`<h3>${heading}</h3>`);
  if (start < 0) throw new Error(`no ${heading} in the Money card`);
  const end = card.indexOf('<h3>', start + 1);
  return card.slice(start, end < 0 ? undefined : end);
};
const rowWith = (html: string, text: string) => {
  const at = html.indexOf(text);
  if (at < 0) throw new Error(`${text} is not on the page`);
  return html.slice(html.lastIndexOf('<tr', at), html.indexOf('</tr>', at));
};

describe('merchant console: the Money card of a payment', () => {
  let api: PaymentsApiHarness;
  let shop: Merchant;
  let client: ConsoleClient;

  beforeAll(async () => {
    // The voucher page throttles wrong PINs per client: each test sends its own X-Forwarded-For.
    api = await PaymentsApiHarness.start({ TRUST_PROXY: 'loopback' });
    shop = await approvedMerchant(api, { name: 'Money Shop' });
    client = await ConsoleClient.login(api, shop.email);
  });
  afterAll(() => api.stop());

  async function testPayment(amount = 15_000) {
    const created = await api
      .as(shop)
      .post('/v1/payments')
      .set('Idempotency-Key', randomUUID())
      .send(paymentBody({ amount }))
      .expect(201);
    return created.body.data as { id: string; orderId: string; payUrl: string };
  }

  /** A test voucher of that value, as issued with its whole PIN (the one time it is shown). */
  async function testVoucher(faceValue: number) {
    const issued = await api.as(shop).post('/v1/test-helpers/vouchers').send({ faceValue }).expect(201);
    return issued.body.data as { id: string; pin: string };
  }

  /** The payer enters the PIN on the payment screen's voucher page; the payment still has more to pay. */
  async function applyVoucher(payUrl: string, pin: string, ip: string) {
    const answer = await (await openVoucherPage(api, payUrl)).submit(pin, ip).expect(200);
    expect(answer.text).toContain(`PIN ending ${pin.slice(-4)}: applied`);
  }

  async function moneyOf(paymentId: string) {
    const page = await client.get(`/console/payments/${paymentId}`).expect(200);
    expect(page.text).not.toContain('<script');
    return moneyCardOf(page.text);
  }

  it('shows the matched deposit, the deposit code and the settlement record', async () => {
    const payment = await testPayment(15_000);
    const before = await moneyOf(payment.id);
    expect(before).toContain('No settlement record: the payment has not completed.');
    expect(before).toContain('No deposits.');
    expect(before).toContain('No vouchers.');
    expect(before).toContain('No review cases.');

    const deposit = await api.as(shop).post(`/v1/test-helpers/payments/${payment.id}/deposit`).expect(201);
    expect(deposit.body.data).toMatchObject({ outcome: 'matched', paymentId: payment.id, amount: 15_000 });
    const code = deposit.body.data.depositCode as string;
    expect(code).toMatch(/^[A-Z2-9]{8}$/);

    const card = await moneyOf(payment.id);
    // Placed after the payment's fields, before its history.
    const page = (await client.get(`/console/payments/${payment.id}`).expect(200)).text;
    expect(page.indexOf('<dt>Return URL</dt>')).toBeLessThan(page.indexOf('<h2 id="money">Money</h2>'));
    expect(page.indexOf('<h2 id="money">Money</h2>')).toBeLessThan(page.indexOf('<h2>State history</h2>'));

    const settlement = partOf(card, 'Settlement');
    expect(settlement).toContain('<dt>Gross</dt>\n      <dd>₩15,000</dd>');
    expect(settlement).toContain('₩375 <span class="muted">(2.50%)</span>');
    expect(settlement).toContain('<dt>VAT</dt>\n      <dd>₩37</dd>');
    expect(settlement).toContain('<dt>Net</dt>\n      <dd>₩14,588</dd>');
    const [record] = await api.sql<{ sales_date: string; payout_date: string }>(
      `SELECT to_char(sales_date, 'YYYY-MM-DD') AS sales_date, to_char(payout_date, 'YYYY-MM-DD') AS payout_date
         FROM settlements WHERE payment_id = $1`,
      [payment.id],
    );
    expect(settlement).toContain(`<dt>Sales date</dt>\n      <dd>${record.sales_date}</dd>`);
    expect(settlement).toContain(`<dt>Payout date</dt>\n      <dd>${record.payout_date}</dd>`);

    const transfer = partOf(card, 'Bank transfer');
    expect(transfer).toContain(`<code>${code.slice(0, 4)}-${code.slice(4)}</code>`);
    const row = rowWith(transfer, deposit.body.data.bankTransactionId as string);
    expect(row).toContain('₩15,000');
    expect(row).toContain('TEST DEPOSITOR');
    expect(row).toContain('<span class="badge matched">matched</span>');
    // Received in the merchant's zone (Asia/Seoul), with the instant for machines.
    expect(row).toContain(`datetime="${deposit.body.data.receivedAt}"`);
    expect(row).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} KST<\/time>/);
    expect(card).toContain('No review cases.');
  });

  it('shows a short deposit under review, then the refund the operator recorded', async () => {
    const payment = await testPayment(15_000);
    const deposit = await api
      .as(shop)
      .post(`/v1/test-helpers/payments/${payment.id}/deposit`)
      .send({ amount: 10_000 })
      .expect(201);
    expect(deposit.body.data).toMatchObject({ outcome: 'review', reviewReason: 'amount_short' });
    const reviewCaseId = deposit.body.data.reviewCaseId as string;

    const open = await moneyOf(payment.id);
    expect(open).toContain('No settlement record: the payment has not completed.');
    const depositRow = rowWith(partOf(open, 'Bank transfer'), deposit.body.data.bankTransactionId as string);
    expect(depositRow).toContain('₩10,000');
    expect(depositRow).toContain('<span class="badge review">review</span>');
    expect(depositRow).toContain(`href="#${reviewCaseId}"`);
    const openCase = rowWith(partOf(open, 'Review cases'), `<tr id="${reviewCaseId}">`);
    expect(openCase).toContain('Amount short');
    expect(openCase).toContain('₩10,000');
    expect(openCase).toContain('<span class="badge open">open</span>');
    expect(openCase).not.toContain('Refund of');

    await api
      .admin()
      .post(`/admin/v1/reviews/${reviewCaseId}/resolve`)
      .send({ action: 'refund', resolvedBy: 'ops@payhook.test' })
      .expect(200);
    const resolved = await moneyOf(payment.id);
    const resolvedCase = rowWith(partOf(resolved, 'Review cases'), `<tr id="${reviewCaseId}">`);
    expect(resolvedCase).toContain('<span class="badge resolved">resolved</span>');
    expect(resolvedCase).toMatch(/Refund of ₩10,000 recorded by ops@payhook\.test on <time datetime="[^"]+Z"/);
    // A refund moves nothing: the payment is still unpaid.
    expect(resolved).toContain('No settlement record: the payment has not completed.');
  });

  it('shows a held voucher by the last 4 digits of its PIN only, then redeemed', async () => {
    const payment = await testPayment(15_000);
    const { pin } = await testVoucher(5_000);
    expect(pin).toMatch(/^\d{16}$/);

    await applyVoucher(payment.payUrl, pin, '198.51.100.61');

    const page = (await client.get(`/console/payments/${payment.id}`).expect(200)).text;
    const held = rowWith(partOf(moneyCardOf(page), 'Vouchers'), `PIN …${pin.slice(-4)}`);
    expect(held).toContain('Culture gift voucher');
    expect(held).toContain('₩5,000');
    expect(held).toContain('<span class="badge held">held</span>');
    expect(page).not.toContain(pin);
    expect(page).not.toContain(pin.slice(0, 12));

    // The rest by bank transfer completes the payment and redeems the voucher.
    const rest = await api.as(shop).post(`/v1/test-helpers/payments/${payment.id}/deposit`).expect(201);
    expect(rest.body.data).toMatchObject({ outcome: 'matched', amount: 10_000 });
    const paid = await moneyOf(payment.id);
    expect(rowWith(partOf(paid, 'Vouchers'), `PIN …${pin.slice(-4)}`)).toContain(
      '<span class="badge redeemed">redeemed</span>',
    );
    expect(partOf(paid, 'Settlement')).toContain('<dt>Net</dt>\n      <dd>₩14,588</dd>');
    expect(paid).not.toContain(pin);
  });

  it("shows none of it in another merchant's console", async () => {
    const payment = await testPayment(15_000);
    const { pin } = await testVoucher(5_000);
    await applyVoucher(payment.payUrl, pin, '198.51.100.62');
    const short = await api
      .as(shop)
      .post(`/v1/test-helpers/payments/${payment.id}/deposit`)
      .send({ amount: 1_000 })
      .expect(201);
    const paid = await api.as(shop).post(`/v1/test-helpers/payments/${payment.id}/deposit`).expect(201);
    expect(paid.body.data.outcome).toBe('matched');
    const code = paid.body.data.depositCode as string;
    // Everything is on our page.
    const ours = await moneyOf(payment.id);
    expect(ours).toContain(short.body.data.reviewCaseId);
    expect(ours).toContain(`PIN …${pin.slice(-4)}`);
    expect(ours).toContain('₩14,588');

    const other = await approvedMerchant(api, { name: 'Other Shop' });
    const otherClient = await ConsoleClient.login(api, other.email);
    for (const mode of ['test', 'live']) {
      const page = await otherClient.get(`/console/payments/${payment.id}?mode=${mode}`).expect(404);
      expect(page.text).toContain('Not found');
      for (const secret of [
        payment.orderId,
        short.body.data.reviewCaseId as string,
        short.body.data.bankTransactionId as string,
        paid.body.data.bankTransactionId as string,
        `${code.slice(0, 4)}-${code.slice(4)}`,
        `PIN …${pin.slice(-4)}`,
        '₩14,588',
      ]) {
        expect(page.text).not.toContain(secret);
      }
    }
    // Nor in our own console in live mode: the payment is a test payment.
    await client.get(`/console/payments/${payment.id}?mode=live`).expect(404);
  });
});
