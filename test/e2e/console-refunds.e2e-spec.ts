import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { ConsoleClient, approvedMerchant } from '../support/console-client';
import { PaymentsApiHarness, paymentBody } from '../support/payments-api.harness';

type Merchant = Awaited<ReturnType<typeof approvedMerchant>>;

/** The Refunds card of a console payment page. */
const refundsCardOf = (html: string) => {
  const start = html.indexOf('<section class="card" id="refunds"');
  if (start < 0) throw new Error('no Refunds card on the page');
  return html.slice(start, html.indexOf('</section>', start));
};
const historyOf = (html: string) => html.slice(html.indexOf('<ol class="history">'), html.indexOf('</ol>'));
/** The hidden fields of the confirmation form, as a browser would send them back. */
const confirmationFormOf = (html: string): Record<string, string> => {
  const form = html.slice(html.indexOf('<form method="post" action="/console/payments/'), html.lastIndexOf('</form>'));
  const fields: Record<string, string> = {};
  for (const match of form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)) {
    fields[match[1]] = match[2]
      .replace(/&amp;/g, '&')
      .replace(/&#39;/g, "'")
      .replace(/&quot;/g, '"');
  }
  delete fields.csrf;
  return fields;
};
/** The page as a person reads it: without tags, so hidden fields do not count as shown. */
const visibleText = (html: string) => html.replace(/<input [^>]*>/g, '').replace(/<[^>]+>/g, ' ');

/** Every line the app logs (request lines included), to show the refund account is never among them. */
class CapturedLog extends Writable {
  text = '';

  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    this.text += chunk.toString('utf8');
    done();
  }
}

describe('merchant console: refunds', () => {
  let api: PaymentsApiHarness;
  let shop: Merchant;
  let client: ConsoleClient;
  const log = new CapturedLog();

  beforeAll(async () => {
    api = await PaymentsApiHarness.start({}, undefined, log);
    shop = await approvedMerchant(api, { name: 'Refund Shop', timeZone: 'Asia/Seoul' });
    client = await ConsoleClient.login(api, shop.email);
  });
  afterAll(() => api.stop());

  async function payment(merchant: { key: string }, amount = 15_000, extra: Record<string, unknown> = {}) {
    const created = await api
      .as(merchant)
      .post('/v1/payments')
      .set('Idempotency-Key', randomUUID())
      .send(paymentBody({ amount, ...extra }))
      .expect(201);
    return created.body.data as { id: string; orderId: string };
  }

  async function completedPayment(amount = 15_000, extra: Record<string, unknown> = {}) {
    const created = await payment(shop, amount, extra);
    await api.as(shop).post(`/v1/test-helpers/payments/${created.id}/complete`).expect(200);
    return created;
  }

  /** The payment's refunds as stored, oldest first (the refund account is checked not to be shown, not read). */
  const refundsOf = (paymentId: string) =>
    api.sql<{ id: string; amount: number; status: string; reason: string | null }>(
      `SELECT id, amount::int AS amount, status, reason FROM refunds WHERE payment_id = $1 ORDER BY created_at, id`,
      [paymentId],
    );

  /** The review step; on success the confirmation page's form, ready to be sent back. */
  async function review(paymentId: string, form: Record<string, string>, user = client) {
    const page = await user.post(`/console/payments/${paymentId}/refunds/review`, { mode: 'test', ...form });
    return { page, confirmation: page.status === 200 ? confirmationFormOf(page.text) : null };
  }

  it('refunds part of a test payment through the form, a confirmation and a redirect back to the payment', async () => {
    const paid = await completedPayment(15_000);
    const before = refundsCardOf((await client.get(`/console/payments/${paid.id}?mode=test`).expect(200)).text);
    expect(before).toContain('No refunds.');
    expect(before).toContain('₩15,000 of ₩15,000 left to refund');
    expect(before).toContain(`action="/console/payments/${paid.id}/refunds/review"`);
    expect(before).toMatch(/id="refund-amount"\s+name="amount"\s+value="15000"/);
    expect(before).not.toContain('name="accountNumber"');

    const { page, confirmation } = await review(paid.id, { amount: '5,000', reason: 'Box arrived damaged' });
    expect(page.status).toBe(200);
    expect(page.text).toContain(`Refund ₩5,000 of payment <code>${paid.id}</code> (order ${paid.orderId})?`);
    expect(page.text).toContain('In test mode the refund succeeds at once');
    expect(page.text).toContain('>Confirm refund</button>');
    expect(page.text).toContain(`formaction="/console/payments/${paid.id}/refunds/edit">Back</button>`);
    expect(confirmation).toEqual({
      mode: 'test',
      idempotencyKey: expect.stringMatching(/^console_[A-Za-z0-9_-]{22}$/),
      amount: '5000',
      reason: 'Box arrived damaged',
    });
    // Nothing happens before Confirm.
    await expect(refundsOf(paid.id)).resolves.toEqual([]);

    const confirmed = await client.post(`/console/payments/${paid.id}/refunds`, confirmation!).expect(303);
    expect(confirmed.headers.location).toBe(`/console/payments/${paid.id}?mode=test&notice=refunded#refunds`);
    const refunds = await refundsOf(paid.id);
    expect(refunds).toEqual([
      expect.objectContaining({ amount: 5_000, status: 'succeeded', reason: 'Box arrived damaged' }),
    ]);

    const after = (await client.get(confirmed.headers.location.split('#')[0]).expect(200)).text;
    expect(after).toContain('Refund made');
    const card = refundsCardOf(after);
    const itemStart = card.indexOf(`<li class="event" id="${refunds[0].id}">`);
    const item = card.slice(itemStart, card.indexOf('</li>', itemStart));
    expect(item).toContain('<h3>₩5,000 <span class="badge succeeded">succeeded</span></h3>');
    expect(item).toMatch(/<dt>Reason<\/dt>\s*<dd>Box arrived damaged<\/dd>/);
    // Created and succeeded in the merchant's zone, with the instant for machines; never failed.
    const time = '<time datetime="[^"]+Z" class="nowrap">[\\d-]+ [\\d:]+ KST</time>';
    expect(item).toMatch(new RegExp(`<dt>Created</dt>\\s*<dd>${time}</dd>`));
    expect(item).toMatch(new RegExp(`<dt>Succeeded</dt>\\s*<dd>${time}</dd>`));
    expect(item).toMatch(/<dt>Failed<\/dt>\s*<dd>\s*<span class="muted">—<\/span>/);
    expect(card).toContain('₩10,000 of ₩15,000 left to refund');
    expect(card).toMatch(/id="refund-amount"\s+name="amount"\s+value="10000"/);
    expect(historyOf(after)).toMatch(
      /Completed · [\s\S]*Refund of ₩5,000 requested \(<code>rfd_\w+<\/code>\) · [\s\S]*Refund of ₩5,000 succeeded · /,
    );
    const [stored] = await api.sql<{ status: string; refunded_amount: string }>(
      'SELECT status, refunded_amount FROM payments WHERE id = $1',
      [paid.id],
    );
    expect(stored).toEqual({ status: 'completed', refunded_amount: '5000' });
    // The Payments list marks it, and a payment refunded in full, at a glance.
    const rowOf = (html: string, id: string) =>
      html.slice(html.lastIndexOf('<tr>', html.indexOf(id)), html.indexOf('</tr>', html.indexOf(id)));
    const listed = (await client.get(`/console/payments?mode=test&orderId=${paid.orderId}`).expect(200)).text;
    expect(rowOf(listed, paid.id)).toContain('<span class="badge">₩5,000 refunded</span>');
    const whole = await client
      .post(`/console/payments/${paid.id}/refunds`, (await review(paid.id, { amount: '10,000' })).confirmation!)
      .expect(303);
    expect(whole.headers.location).toContain('notice=refunded');
    const fully = (await client.get(`/console/payments?mode=test&orderId=${paid.orderId}`).expect(200)).text;
    expect(rowOf(fully, paid.id)).toContain('<span class="badge">refunded</span>');
  });

  it('goes back from the confirmation to the form as it was typed, making nothing', async () => {
    const paid = await completedPayment(15_000);
    const { confirmation } = await review(paid.id, { amount: '2000', reason: 'Wrong size' });
    // Opened as an address (a reload, a bookmark): back to the payment.
    const reloaded = await client.get(`/console/payments/${paid.id}/refunds/review?mode=test`).expect(303);
    expect(reloaded.headers.location).toBe(`/console/payments/${paid.id}?mode=test#refunds`);
    const back = await client.post(`/console/payments/${paid.id}/refunds/edit`, confirmation!).expect(200);
    const card = refundsCardOf(back.text);
    expect(card).toMatch(/id="refund-amount"\s+name="amount"\s+value="2000"/);
    expect(card).toMatch(/id="refund-reason"\s+name="reason"\s+value="Wrong size"/);
    await expect(refundsOf(paid.id)).resolves.toEqual([]);
  });

  it('refuses the review and the confirmation without the session CSRF token, changing nothing', async () => {
    const paid = await completedPayment(15_000);
    for (const csrf of [null, 'not-the-token', client.csrf.slice(0, -1)]) {
      const reviewed = await client.post(
        `/console/payments/${paid.id}/refunds/review`,
        { mode: 'test', amount: '1000' },
        { csrf },
      );
      expect(reviewed.status).toBe(403);
    }
    const { confirmation } = await review(paid.id, { amount: '1000' });
    for (const csrf of [null, 'not-the-token']) {
      const refused = await client.post(`/console/payments/${paid.id}/refunds`, confirmation!, { csrf });
      expect(refused.status).toBe(403);
      expect(refused.text).toContain('Form expired');
    }
    // A confirmation whose key did not come from a confirmation page is refused the same way.
    const forged = await client.post(`/console/payments/${paid.id}/refunds`, {
      ...confirmation!,
      idempotencyKey: 'my-own-key',
    });
    expect(forged.status).toBe(403);
    await expect(refundsOf(paid.id)).resolves.toEqual([]);
  });

  it('makes one refund when Confirm is pressed twice, at once or one after the other', async () => {
    const paid = await completedPayment(15_000);
    const { confirmation } = await review(paid.id, { amount: '15000' });
    const send = () => client.post(`/console/payments/${paid.id}/refunds`, confirmation!);
    const answers = [...(await Promise.all([send(), send()])), await send()];
    for (const answer of answers) {
      expect(answer.status).toBe(303);
      expect(answer.headers.location).toMatch(
        new RegExp(`^/console/payments/${paid.id}\\?mode=test&notice=refunded#refunds$`),
      );
    }
    await expect(refundsOf(paid.id)).resolves.toEqual([expect.objectContaining({ amount: 15_000 })]);
    // Fully refunded: no form any more.
    const card = refundsCardOf((await client.get(`/console/payments/${paid.id}?mode=test`).expect(200)).text);
    expect(card).toContain('₩0 of ₩15,000 left to refund');
    expect(card).not.toContain('<form');
  });

  it('shows an amount above the remainder next to the field, and makes nothing', async () => {
    const paid = await completedPayment(15_000);
    const { page } = await review(paid.id, { amount: '15001', reason: 'Too much' });
    expect(page.status).toBe(400);
    const card = refundsCardOf(page.text);
    expect(card).toContain('The refund was not made: correct the fields marked below.');
    expect(card).toContain(
      '<p class="field-error" id="refund-amount-error">The amount is more than can be refunded: at most ₩15,000 is left.</p>',
    );
    expect(card).toMatch(
      /id="refund-amount"\s+name="amount"\s+value="15001"[^>]*aria-describedby="refund-amount-hint refund-amount-error"\s+aria-invalid="true"/,
    );
    expect(card).toMatch(/id="refund-reason"\s+name="reason"\s+value="Too much"/);

    // Two confirmations of ₩10,000 each, made before either was sent: the refund service refuses the second.
    const first = await review(paid.id, { amount: '10000' });
    const second = await review(paid.id, { amount: '10000' });
    await client.post(`/console/payments/${paid.id}/refunds`, first.confirmation!).expect(303);
    const exceeded = await client.post(`/console/payments/${paid.id}/refunds`, second.confirmation!);
    expect(exceeded.status).toBe(409);
    expect(refundsCardOf(exceeded.text)).toContain(
      '<p class="field-error" id="refund-amount-error">The amount is more than can be refunded: at most ₩5,000 is left.</p>',
    );
    await expect(refundsOf(paid.id)).resolves.toEqual([expect.objectContaining({ amount: 10_000 })]);
  });

  it('shows other mistakes next to their fields', async () => {
    const paid = await completedPayment(15_000);
    const { page } = await review(paid.id, { amount: '12.5', reason: 'x'.repeat(201) });
    expect(page.status).toBe(400);
    const card = refundsCardOf(page.text);
    expect(card).toContain('id="refund-amount-error">Enter the amount in whole won, such as 15000.</p>');
    expect(card).toContain('id="refund-reason-error">The reason must be at most 200 characters');
    expect(card).toContain('aria-describedby="refund-reason-hint refund-reason-error"');
    await expect(refundsOf(paid.id)).resolves.toEqual([]);
  });

  it("takes a tax-free part, and says next to it when another refund took the payment's tax-free part since the review", async () => {
    // ₩10,000 with ₩3,000 tax-free.
    const paid = await completedPayment(10_000, { taxFreeAmount: 3_000 });
    const form = refundsCardOf((await client.get(`/console/payments/${paid.id}?mode=test`).expect(200)).text);
    expect(form).toMatch(/id="refund-taxFreeAmount"\s+name="taxFreeAmount"\s+value=""/);
    expect(form).toContain('up to ₩3,000, what is left of this payment&#39;s tax-free amount');

    const { page, confirmation } = await review(paid.id, { amount: '5,000', taxFreeAmount: '₩3,000' });
    expect(page.status).toBe(200);
    expect(page.text).toMatch(/<dt>Tax-free part<\/dt>\s*<dd>₩3,000<\/dd>/);
    expect(confirmation).toMatchObject({ amount: '5000', taxFreeAmount: '3000' });
    // Back to the form: the part as typed.
    const back = refundsCardOf((await client.post(`/console/payments/${paid.id}/refunds/edit`, confirmation!)).text);
    expect(back).toMatch(/id="refund-taxFreeAmount"\s+name="taxFreeAmount"\s+value="3000"/);

    // Meanwhile the API refunds ₩1,000 of the tax-free part: the confirmation no longer fits.
    await api
      .as(shop)
      .post(`/v1/payments/${paid.id}/refunds`)
      .set('Idempotency-Key', randomUUID())
      .send({ amount: 1_000, taxFreeAmount: 1_000 })
      .expect(201);
    const refused = await client.post(`/console/payments/${paid.id}/refunds`, confirmation!);
    expect(refused.status).toBe(400);
    const card = refundsCardOf(refused.text);
    expect(card).toContain(
      '<p class="field-error" id="refund-taxFreeAmount-error">The tax-free part is more than is left: at most ₩2,000 of this payment&#39;s tax-free amount is left to refund.</p>',
    );
    await expect(refundsOf(paid.id)).resolves.toEqual([expect.objectContaining({ amount: 1_000 })]);

    // The rest without a part: the confirmation says the share it will take; the card shows each split.
    const rest = await review(paid.id, { amount: '9000' });
    expect(rest.page.text).toContain('₩2,000, the refund&#39;s share of the tax-free amount left');
    expect(rest.confirmation).not.toHaveProperty('taxFreeAmount');
    const made = await client.post(`/console/payments/${paid.id}/refunds`, rest.confirmation!).expect(303);
    const after = refundsCardOf((await client.get(made.headers.location.split('#')[0]).expect(200)).text);
    expect(after).toMatch(
      /<dt>Tax-free part<\/dt>\s*<dd>₩2,000<\/dd>\s*<dt>VAT<\/dt>\s*<dd>₩636<\/dd>\s*<dt>Supplied value<\/dt>\s*<dd>₩6,364<\/dd>/,
    );
    expect(after).toMatch(
      /<dt>Tax-free part<\/dt>\s*<dd>₩1,000<\/dd>\s*<dt>VAT<\/dt>\s*<dd>₩0<\/dd>\s*<dt>Supplied value<\/dt>\s*<dd>₩0<\/dd>/,
    );
    // Nothing tax-free left: no field for it.
    expect(after).not.toContain('name="taxFreeAmount"');
  });

  it('has no refund form on a payment that is not completed, and refuses a refund of it', async () => {
    const pending = await payment(shop);
    const card = refundsCardOf((await client.get(`/console/payments/${pending.id}?mode=test`).expect(200)).text);
    expect(card).toContain('Only a completed payment can be refunded.');
    expect(card).not.toContain('<form');
    const refused = await client.post(`/console/payments/${pending.id}/refunds/review`, {
      mode: 'test',
      amount: '1000',
    });
    expect(refused.status).toBe(409);
    expect(refused.text).toContain('<p class="error" role="alert">Only a completed payment can be refunded.</p>');
    await expect(refundsOf(pending.id)).resolves.toEqual([]);
  });

  it("finds no other merchant's payment", async () => {
    const other = await approvedMerchant(api, { name: 'Other Shop' });
    const theirs = await payment(other);
    await api.as(other).post(`/v1/test-helpers/payments/${theirs.id}/complete`).expect(200);
    const reviewed = await review(theirs.id, { amount: '1000' });
    expect(reviewed.page.status).toBe(404);
    const { confirmation } = await review((await completedPayment()).id, { amount: '1000' });
    await client.post(`/console/payments/${theirs.id}/refunds`, confirmation!).expect(404);
    await expect(refundsOf(theirs.id)).resolves.toEqual([]);
  });

  it('asks for the refund account in live mode, and never shows it once the refund is submitted', async () => {
    const live = await approvedMerchant(api, { name: 'Live Refund Shop' });
    await api.sql(`UPDATE merchants SET status = 'live' WHERE id = $1`, [live.merchantId]);
    const liveKey = await api.issueKey(live.merchantId, 'live');
    const liveClient = await ConsoleClient.login(api, live.email);
    const paid = await payment(liveKey, 30_000);
    await api.admin().post(`/admin/v1/payments/${paid.id}/confirm-receipt`).expect(200);

    const form = refundsCardOf((await liveClient.get(`/console/payments/${paid.id}?mode=live`).expect(200)).text);
    expect(form).toContain('<legend>Refund account (required for live refunds)</legend>');
    for (const name of ['bank', 'accountNumber', 'holderName']) expect(form).toContain(`name="${name}"`);

    const missing = await review(paid.id, { mode: 'live', amount: '30000' }, liveClient);
    expect(missing.page.status).toBe(400);
    const refusedCard = refundsCardOf(missing.page.text);
    expect(refusedCard).toContain('id="refund-bank-error">Enter the bank: live refunds are paid into this account.');
    expect(refusedCard).toContain('id="refund-accountNumber-error">Enter the account number');
    expect(refusedCard).toContain('id="refund-holderName-error">Enter the holder name');
    expect(refusedCard).toMatch(/id="refund-bank"[^>]*aria-describedby="refund-bank-error"\s+aria-invalid="true"/);

    const account = { bank: 'Shinhan Bank', accountNumber: '110-234-567890', holderName: 'Park Seoyeon' };
    const { page, confirmation } = await review(
      paid.id,
      { mode: 'live', amount: '30000', reason: 'Order canceled', ...account },
      liveClient,
    );
    expect(page.status).toBe(200);
    expect(page.text).toContain(`Refund ₩30,000 of payment <code>${paid.id}</code> (order ${paid.orderId})?`);
    expect(page.text).toContain('Shinhan Bank account …7890 of Park Seoyeon');
    expect(page.text).toContain('The refund stays pending until payhook has sent ₩30,000');
    expect(visibleText(page.text)).not.toContain(account.accountNumber);
    expect(confirmation).toMatchObject({ mode: 'live', ...account });

    const confirmed = await liveClient.post(`/console/payments/${paid.id}/refunds`, confirmation!).expect(303);
    expect(confirmed.headers.location).toBe(`/console/payments/${paid.id}?mode=live&notice=refunded#refunds`);
    await expect(refundsOf(paid.id)).resolves.toEqual([
      expect.objectContaining({ amount: 30_000, status: 'pending', reason: 'Order canceled' }),
    ]);
    const after = (await liveClient.get(`/console/payments/${paid.id}?mode=live`).expect(200)).text;
    const card = refundsCardOf(after);
    expect(card).toContain('<h3>₩30,000 <span class="badge pending">pending</span></h3>');
    expect(card).toContain('₩0 of ₩30,000 left to refund');
    for (const secret of Object.values(account)) expect(after).not.toContain(secret);

    // A refusal after Confirm (here: a new confirmation when nothing is left) does not show the account either.
    const again = await liveClient.post(`/console/payments/${paid.id}/refunds`, {
      ...confirmation!,
      idempotencyKey: `console_${'A'.repeat(22)}`,
    });
    expect(again.status).toBe(409);
    expect(again.text).toContain('<p class="error" role="alert">Nothing is left to refund on this payment.</p>');
    for (const secret of Object.values(account)) expect(again.text).not.toContain(secret);
    expect(log.text).toContain(`/console/payments/${paid.id}/refunds`);
    for (const secret of [account.accountNumber, account.holderName]) expect(log.text).not.toContain(secret);

    // The operator could not send it: the console shows why, and the amount is free to refund again.
    const [pending] = await refundsOf(paid.id);
    await api.admin().post(`/admin/v1/refunds/${pending.id}/fail`).send({ reason: 'Account closed' }).expect(200);
    const failed = (await liveClient.get(`/console/payments/${paid.id}?mode=live`).expect(200)).text;
    const failedCard = refundsCardOf(failed);
    expect(failedCard).toContain('<h3>₩30,000 <span class="badge failed">failed</span></h3>');
    expect(failedCard).toMatch(
      /<dt>Failed<\/dt>\s*<dd>\s*<time datetime="[^"]+Z"[^>]*>[^<]+<\/time>\s*<br \/><span class="muted">Account closed<\/span>/,
    );
    expect(failedCard).toContain('₩30,000 of ₩30,000 left to refund');
    expect(failedCard).toContain('name="accountNumber"');
    expect(historyOf(failed)).toMatch(/Refund of ₩30,000 requested[\s\S]*Refund of ₩30,000 failed · /);
  });

  it("counts a refund in the day's settlements, as a record of its own with negative amounts", async () => {
    const seller = await approvedMerchant(api, { name: 'Settling Shop' });
    const sellerClient = await ConsoleClient.login(api, seller.email);
    const created = await payment(seller, 15_000);
    await api.as(seller).post(`/v1/test-helpers/payments/${created.id}/complete`).expect(200);
    const { confirmation } = await review(created.id, { amount: '5000' }, sellerClient);
    await sellerClient.post(`/console/payments/${created.id}/refunds`, confirmation!).expect(303);
    const [refund] = await refundsOf(created.id);
    const records = await api.sql<{ type: string; sales_date: string }>(
      `SELECT type, to_char(sales_date, 'YYYY-MM-DD') AS sales_date FROM settlements WHERE payment_id = $1
        ORDER BY type`,
      [created.id],
    );
    expect(records.map((record) => record.type)).toEqual(['payment', 'refund']);
    const day = records[1].sales_date;

    // 15,000 at 2.5%: fee ₩375, VAT ₩37, net ₩14,588. The ₩5,000 refund returns fee ₩125 and VAT ₩12.
    const list = (await sellerClient.get(`/console/settlements?mode=test&date=${day}`).expect(200)).text;
    const refundRowStart = list.lastIndexOf('<tr>', list.indexOf(`#${refund.id}"`));
    const refundRow = list.slice(refundRowStart, list.indexOf('</tr>', refundRowStart));
    expect(refundRow).toContain('<td data-label="Type">Refund</td>');
    expect(refundRow).toContain(`href="/console/payments/${created.id}?mode=test#${refund.id}"`);
    for (const amount of ['−₩5,000', '−₩125', '−₩12', '−₩4,863']) expect(refundRow).toContain(amount);
    expect(refundRow).toContain('data-label="Refunded"><time');
    const totals = list.slice(list.indexOf('<tfoot>'), list.indexOf('</tfoot>'));
    // The merchant's other records of the day (if the day turned in Seoul mid-test) count too: compare with the database.
    const [sum] = await api.sql<{ count: number; gross: number; net: number }>(
      `SELECT count(*)::int AS count, sum(gross_amount)::int AS gross, sum(net_amount)::int AS net
         FROM settlements WHERE merchant_id = $1 AND livemode = false AND sales_date = $2`,
      [seller.merchantId, day],
    );
    expect(totals).toContain(`Total of ${day} (${sum.count} records)`);
    expect(totals).toContain(`₩${sum.gross.toLocaleString('en-US')}`);
    expect(totals).toContain(`₩${sum.net.toLocaleString('en-US')}`);

    const page = (await sellerClient.get(`/console/payments/${created.id}?mode=test`).expect(200)).text;
    const money = page.slice(page.indexOf('<h2 id="money">'), page.indexOf('<h3>Bank transfer</h3>'));
    expect(money).toContain(`<h4>Refund <a href="#${refund.id}"><code>${refund.id}</code></a></h4>`);
    expect(money).toMatch(/<dt>Net<\/dt>\s*<dd>−₩4,863<\/dd>/);
    expect(money).toContain('Net after refunds: ₩9,725');
  });
});
