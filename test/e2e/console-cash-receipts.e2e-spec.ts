import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { ConsoleClient, approvedMerchant } from '../support/console-client';
import { englishWords } from '../support/korean-text';
import { PaymentsApiHarness, paymentBody } from '../support/payments-api.harness';

type Merchant = Awaited<ReturnType<typeof approvedMerchant>>;

interface Receipt {
  id: string;
  refundId: string | null;
  transactionType: 'issue' | 'cancel';
  identityNumber: string;
  status: string;
  issueNumber: string | null;
  createdAt: string;
  issuedAt: string | null;
  failedAt: string | null;
}

/** The Cash receipts card of a console payment page. */
function receiptsCardOf(page: string): string {
  const start = page.indexOf('<section class="card" id="cash-receipts"');
  if (start < 0) throw new Error('no Cash receipts card on the page');
  return page.slice(start, page.indexOf('</section>', start));
}

/** One receipt's item in the card, found by its id. */
function receiptItemOf(page: string, id: string): string {
  const card = receiptsCardOf(page);
  const start = card.indexOf(`<li class="event" id="${id}">`);
  if (start < 0) throw new Error(`no item for ${id} in the Cash receipts card`);
  return card.slice(start, card.indexOf('</li>', start));
}

/** A term and its value in a description list, whatever the whitespace between them. */
const term = (name: string, value: string) => new RegExp(`<dt>${name}</dt>\\s*<dd>\\s*${value}\\s*</dd>`);

/** How the console writes an instant for a merchant in Asia/Seoul (UTC+9, no daylight saving). */
const inSeoul = (iso: string) =>
  `<time datetime="${iso}" class="nowrap">${new Date(Date.parse(iso) + 9 * 3_600_000)
    .toISOString()
    .slice(0, 19)
    .replace('T', ' ')} KST</time>`;

/** The labels a reader hears or sees without the text around them. */
const labelsOf = (page: string) =>
  [...page.matchAll(/\s(?:aria-label|data-label)="([^"]*)"/g)].map((match) => match[1]).join(' ');

/** Every line the app logs, to show the buyer's number is never among them. */
class CapturedLog extends Writable {
  text = '';

  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    this.text += chunk.toString('utf8');
    done();
  }
}

/**
 * A payment's page lists its cash receipts (현금영수증): the issue receipt made at completion and the
 * cancel receipt of each refund, each with its split, status and times, the buyer's number masked.
 */
describe('merchant console: a payment’s cash receipts', () => {
  let api: PaymentsApiHarness;
  let shop: Merchant;
  let client: ConsoleClient;
  const log = new CapturedLog();

  beforeAll(async () => {
    api = await PaymentsApiHarness.start({}, undefined, log);
    shop = await approvedMerchant(api, { name: '서울 찻집', timeZone: 'Asia/Seoul' });
    client = await ConsoleClient.login(api, shop.email);
  });
  afterAll(() => api.stop());

  async function createPayment(merchant: { key: string }, amount: number, extra: Record<string, unknown> = {}) {
    const created = await api
      .as(merchant)
      .post('/v1/payments')
      // Digits only, and a Korean customer: nothing on a Korean page is Latin but what the page says.
      .set('Idempotency-Key', randomUUID())
      .send(
        paymentBody({
          amount,
          orderId: `${Date.now()}${Math.floor(Math.random() * 1000)}`,
          customerId: '김민수',
          ...extra,
        }),
      )
      .expect(201);
    return created.body.data as { id: string; orderId: string };
  }

  async function receiptsOf(merchant: { key: string }, paymentId: string): Promise<Receipt[]> {
    const listed = await api.as(merchant).get(`/v1/cash-receipts?paymentId=${paymentId}`).expect(200);
    return listed.body.data as Receipt[];
  }

  /** A browser that sends no Accept-Language: the console speaks Korean to it. */
  const korean = (path: string, user = client) => api.http().get(path).set('Cookie', user.cookie).expect(200);

  function expectKorean(page: string, data: string[]) {
    expect(page).toContain('<html lang="ko">');
    const ids = page.match(/\b(?:pay|evt|rfd|crc|we|att)_[A-Za-z0-9]+/g) ?? [];
    const known = ['Asia/Seoul', ...data, ...ids];
    expect(englishWords(page, known)).toEqual([]);
    expect(englishWords(labelsOf(page), known)).toEqual([]);
  }

  /** The buyer's digits appear on a page only as the last four of the masked number. */
  function expectMasked(page: string) {
    expect(page).not.toContain('01012345678');
    expect(page).not.toContain('010-1234-5678');
    expect(page).not.toContain('1234-5678');
    expect(page.split('<code>*******5678</code>').join('')).not.toContain('5678');
  }

  let paymentPath = '';
  let issue: Receipt;
  let cancel: Receipt;

  it('lists the issue receipt and the cancel receipt of a refund, with their splits, the number masked', async () => {
    const payment = await createPayment(shop, 15_000, {
      cashReceipt: { type: 'income_deduction', identityNumber: '010-1234-5678' },
    });
    paymentPath = `/console/payments/${payment.id}?mode=test`;
    // Asked for at create, but not a receipt until the payment completes.
    const pending = await client.get(paymentPath).expect(200);
    expect(receiptsCardOf(pending.text)).toContain('<h2 id="cash-receipts-title">Cash receipts</h2>');
    expect(receiptsCardOf(pending.text)).toContain('<p class="muted">No cash receipts.</p>');
    expectMasked(pending.text);

    await api.as(shop).post(`/v1/test-helpers/payments/${payment.id}/complete`).expect(200);
    const refund = await api
      .as(shop)
      .post(`/v1/payments/${payment.id}/refunds`)
      .set('Idempotency-Key', randomUUID())
      .send({ amount: 5_000 })
      .expect(201);
    const receipts = await receiptsOf(shop, payment.id);
    expect(receipts.map((receipt) => [receipt.transactionType, receipt.status])).toEqual([
      ['cancel', 'issued'],
      ['issue', 'issued'],
    ]);
    [cancel, issue] = receipts;

    const page = (await client.get(paymentPath).expect(200)).text;
    expectMasked(page);
    // Newest first: the refund's cancel receipt above the issue receipt.
    const card = receiptsCardOf(page);
    expect(card).toContain('<ul class="receipts" aria-label="Cash receipts of this payment, newest first">');
    expect(card.indexOf(cancel.id)).toBeLessThan(card.indexOf(issue.id));

    // ₩15,000: VAT 1,364 and supplied value 13,636, nothing tax-free.
    const issued = receiptItemOf(page, issue.id);
    expect(issued).toContain('<h3>Issue · ₩15,000 <span class="badge issued">issued</span></h3>');
    expect(issued).toMatch(term('Cash receipt', `<code>${issue.id}</code>`));
    expect(issued).toMatch(term('Type', 'Income deduction'));
    expect(issued).toMatch(term('Buyer&#39;s number', '<code>\\*{7}5678</code>'));
    expect(issued).toMatch(term('Tax-free part', '₩0'));
    expect(issued).toMatch(term('VAT', '₩1,364'));
    expect(issued).toMatch(term('Supplied value', '₩13,636'));
    expect(issue.issueNumber).toMatch(/^\d{9}$/);
    expect(issued).toMatch(term('Issue number', `<code>${issue.issueNumber}</code>`));
    expect(issued).toMatch(term('Created', inSeoul(issue.createdAt)));
    expect(issued).toMatch(term('Issued', inSeoul(issue.issuedAt!)));
    expect(issued).not.toContain('Refund');
    expect(issued).not.toContain('self-issued');

    // The refund's ₩5,000 takes back VAT(15,000) − VAT(10,000) = ₩455 of it.
    const canceled = receiptItemOf(page, cancel.id);
    expect(canceled).toContain('<h3>Cancellation · ₩5,000 <span class="badge issued">issued</span></h3>');
    expect(cancel.refundId).toBe(refund.body.data.id);
    expect(canceled).toMatch(term('Refund', `<a href="#${cancel.refundId}"><code>${cancel.refundId}</code></a>`));
    expect(canceled).toMatch(term('Type', 'Income deduction'));
    expect(canceled).toMatch(term('Buyer&#39;s number', '<code>\\*{7}5678</code>'));
    expect(canceled).toMatch(term('Tax-free part', '₩0'));
    expect(canceled).toMatch(term('VAT', '₩455'));
    expect(canceled).toMatch(term('Supplied value', '₩4,545'));
    expect(canceled).toMatch(term('Issue number', `<code>${cancel.issueNumber}</code>`));
    expect(canceled).toMatch(term('Issued', inSeoul(cancel.issuedAt!)));
    // The refund it points at is on the same page.
    expect(page).toContain(`<li class="event" id="${cancel.refundId}">`);
  });

  it('shows the same receipts in Korean, with no English left', async () => {
    const page = (await korean(paymentPath)).text;
    expectKorean(page, ['cash_receipt.issued', 'payment.completed', 'refund.succeeded']);
    expectMasked(page);
    const card = receiptsCardOf(page);
    expect(card).toContain('<h2 id="cash-receipts-title">현금영수증</h2>');
    expect(card).toContain('aria-label="이 결제의 현금영수증 내역(최신순)"');
    const issued = receiptItemOf(page, issue.id);
    expect(issued).toContain('<h3>발급 · ₩15,000 <span class="badge issued">발급됨</span></h3>');
    expect(issued).toMatch(term('용도', '소득공제'));
    expect(issued).toMatch(term('고객 식별 번호', '<code>\\*{7}5678</code>'));
    expect(issued).toMatch(term('부가세', '₩1,364'));
    expect(issued).toMatch(term('공급가액', '₩13,636'));
    expect(issued).toMatch(term('승인번호', `<code>${issue.issueNumber}</code>`));
    expect(issued).toMatch(term('발급 일시', inSeoul(issue.issuedAt!)));
    const canceled = receiptItemOf(page, cancel.id);
    expect(canceled).toContain('<h3>취소 · ₩5,000 <span class="badge issued">발급됨</span></h3>');
    expect(canceled).toMatch(term('관련 환불', `<a href="#${cancel.refundId}"><code>${cancel.refundId}</code></a>`));
    expect(canceled).toMatch(term('부가세', '₩455'));
    expect(canceled).toMatch(term('공급가액', '₩4,545'));
  });

  it('says so when a payment has none, in English and in Korean', async () => {
    const payment = await createPayment(shop, 3_000);
    await api.as(shop).post(`/v1/test-helpers/payments/${payment.id}/complete`).expect(200);
    const path = `/console/payments/${payment.id}?mode=test`;
    expect(receiptsCardOf((await client.get(path).expect(200)).text)).toContain(
      '<p class="muted">No cash receipts.</p>',
    );
    const page = (await korean(path)).text;
    expectKorean(page, ['payment.completed']);
    expect(receiptsCardOf(page)).toContain('<p class="muted">현금영수증 내역이 없습니다.</p>');
  });

  it("shows a failed receipt with its reason, and an expense proof's type", async () => {
    // Test mode's number that fails, so that merchants can see a failure.
    const failing = await createPayment(shop, 11_000, {
      cashReceipt: { type: 'income_deduction', identityNumber: '01000000000' },
    });
    await api.as(shop).post(`/v1/test-helpers/payments/${failing.id}/complete`).expect(200);
    const [failed] = await receiptsOf(shop, failing.id);
    expect(failed).toMatchObject({ status: 'failed', identityNumber: '*******0000' });
    const path = `/console/payments/${failing.id}?mode=test`;
    const english = receiptItemOf((await client.get(path).expect(200)).text, failed.id);
    expect(english).toContain('<h3>Issue · ₩11,000 <span class="badge failed">failed</span></h3>');
    expect(english).toMatch(
      term('Failure reason', 'The tax office rejected the buyer&#39;s number. <code>identity_rejected</code>'),
    );
    expect(english).toMatch(term('Failed', inSeoul(failed.failedAt!)));
    expect(english).not.toContain('Issue number');
    const page = (await korean(path)).text;
    expectKorean(page, ['cash_receipt.failed', 'payment.completed']);
    const inKorean = receiptItemOf(page, failed.id);
    expect(inKorean).toContain('<span class="badge failed">실패</span>');
    expect(inKorean).toMatch(
      term('실패 사유', '국세청이 고객 식별 번호를 거부했습니다. <code>identity_rejected</code>'),
    );

    // A business registration number (check digit right): 지출증빙.
    const business = await createPayment(shop, 22_000);
    await api.as(shop).post(`/v1/test-helpers/payments/${business.id}/complete`).expect(200);
    const asked = await api
      .as(shop)
      .post(`/v1/payments/${business.id}/cash-receipts`)
      .send({ type: 'expense_proof', identityNumber: '123-45-67891' })
      .expect(201);
    const businessPath = `/console/payments/${business.id}?mode=test`;
    const proof = receiptItemOf((await client.get(businessPath).expect(200)).text, asked.body.data.id as string);
    expect(proof).toMatch(term('Type', 'Expense proof'));
    expect(proof).toMatch(term('Buyer&#39;s number', '<code>\\*{6}7891</code>'));
    expect(receiptItemOf((await korean(businessPath)).text, asked.body.data.id as string)).toMatch(
      term('용도', '지출증빙'),
    );
  });

  it("marks a receipt a merchant that must issue made unasked, to the tax office's number", async () => {
    const required = await approvedMerchant(api, { name: '부산 빵집', timeZone: 'Asia/Seoul' });
    await api
      .admin()
      .patch(`/admin/v1/merchants/${required.merchantId}`)
      .send({ cashReceiptRequired: true })
      .expect(200);
    const user = await ConsoleClient.login(api, required.email);
    const payment = await createPayment(required, 100_000);
    await api.as(required).post(`/v1/test-helpers/payments/${payment.id}/complete`).expect(200);
    const [receipt] = await receiptsOf(required, payment.id);
    const path = `/console/payments/${payment.id}?mode=test`;
    const english = receiptItemOf((await user.get(path).expect(200)).text, receipt.id);
    expect(english).toContain('<code>******1234</code>');
    expect(english).toContain('<span class="badge">self-issued</span>');
    expect(english).toContain('Issued unasked, to the tax office&#39;s own number');
    const page = (await korean(path, user)).text;
    expectKorean(page, ['cash_receipt.issued', 'payment.completed']);
    expect(receiptItemOf(page, receipt.id)).toContain('<span class="badge">자진발급</span>');
    expect(page).not.toContain('0100001234');
  });

  it('shows a live receipt pending until the operator reports it issued', async () => {
    const live = await approvedMerchant(api, { name: '대구 꽃집', timeZone: 'Asia/Seoul' });
    await api.sql(`UPDATE merchants SET status = 'live' WHERE id = $1`, [live.merchantId]);
    const liveKey = await api.issueKey(live.merchantId, 'live');
    const user = await ConsoleClient.login(api, live.email);
    const payment = await createPayment(liveKey, 30_000, {
      cashReceipt: { type: 'income_deduction', identityNumber: '010 1234 5678' },
    });
    await api.admin().post(`/admin/v1/payments/${payment.id}/confirm-receipt`).expect(200);
    const [receipt] = await receiptsOf(liveKey, payment.id);
    expect(receipt.status).toBe('pending');

    const path = `/console/payments/${payment.id}?mode=live`;
    const waiting = (await user.get(path).expect(200)).text;
    expectMasked(waiting);
    const item = receiptItemOf(waiting, receipt.id);
    expect(item).toContain('<h3>Issue · ₩30,000 <span class="badge pending">pending</span></h3>');
    expect(item).toMatch(/<dt>Issue number<\/dt>\s*<dd class="muted">Waiting for the tax office&#39;s answer.<\/dd>/);
    const inKorean = (await korean(path, user)).text;
    expectKorean(inKorean, ['payment.completed']);
    expect(receiptItemOf(inKorean, receipt.id)).toContain('<span class="badge pending">대기</span>');
    expect(receiptItemOf(inKorean, receipt.id)).toContain('국세청의 발급 결과를 기다리고 있습니다.');

    await api
      .admin()
      .post(`/admin/v1/cash-receipts/${receipt.id}/issue`)
      .send({ issueNumber: 'NTS-20261128-01' })
      .expect(200);
    const answered = (await user.get(path).expect(200)).text;
    expectMasked(answered);
    const issued = receiptItemOf(answered, receipt.id);
    expect(issued).toContain('<span class="badge issued">issued</span>');
    expect(issued).toMatch(term('Issue number', '<code>NTS-20261128-01</code>'));
  });

  it("never logs the buyer's number", () => {
    expect(log.text.length).toBeGreaterThan(0);
    for (const digits of ['01012345678', '010-1234-5678', '010 1234 5678', '1234567891']) {
      expect(log.text).not.toContain(digits);
    }
  });
});
