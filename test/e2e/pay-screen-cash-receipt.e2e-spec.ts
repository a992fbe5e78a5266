import { Writable } from 'node:stream';
import { createPayment } from '../support/pay-screen-client';
import { PaymentsApiHarness, type TestMerchant } from '../support/payments-api.harness';

/** Every line the app writes: the buyer's number must be in none. */
class CapturedLines extends Writable {
  readonly lines: string[] = [];

  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    this.lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    done();
  }
}

const MOBILE = '010-1234-5678';
const MOBILE_DIGITS = '01012345678';
/** A business registration number whose check digit is right. */
const BUSINESS = '220-81-62517';
const BUSINESS_DIGITS = '2208162517';

/**
 * The cash receipt (현금영수증) form on the payment screen, used as a browser without JavaScript uses
 * it: GET the screen, POST the form with the cookie and token the screen gave, follow the 303.
 */
describe('payment screen: the cash receipt form', () => {
  const log = new CapturedLines();
  let api: PaymentsApiHarness;
  let merchant: TestMerchant;

  beforeAll(async () => {
    api = await PaymentsApiHarness.start({}, undefined, log);
  });
  afterAll(() => api.stop());
  beforeEach(async () => {
    merchant = await api.merchantWithKey('test');
  });

  /** A browser on the screen: its CSRF cookie and form token, and the form's post. */
  async function openScreen(payUrl: string, language = 'ko') {
    const path = new URL(payUrl).pathname;
    const page = await api.http().get(path).set('Accept-Language', language).expect(200);
    const cookie = (page.headers['set-cookie'] as unknown as string[])
      .find((value) => value.startsWith('payhook_csrf='))!
      .split(';')[0];
    const csrf = /name="csrf" value="([^"]+)"/.exec(page.text)![1];
    return {
      path,
      page,
      cookie,
      csrf,
      post: (fields: Record<string, unknown>, options: { cookie?: string } = {}) =>
        api
          .http()
          .post(`${path}/cash-receipt`)
          .set('Accept-Language', language)
          .set('Cookie', options.cookie ?? cookie)
          .type('form')
          .send({ csrf, ...fields }),
      view: () => api.http().get(path).set('Accept-Language', language).set('Cookie', cookie),
    };
  }

  async function askedOnRow(paymentId: string) {
    const [row] = await api.sql<{
      cash_receipt_type: string | null;
      cash_receipt_identity_masked: string | null;
      cash_receipt_identity_sealed: string | null;
    }>(
      `SELECT cash_receipt_type, cash_receipt_identity_masked, cash_receipt_identity_sealed FROM payments WHERE id = $1`,
      [paymentId],
    );
    return row;
  }

  it('offers the form in Korean by default and in English when the browser asks', async () => {
    const payment = await createPayment(api, merchant);
    const korean = await openScreen(payment.payUrl);
    expect(korean.page.text).toContain('<h2 id="cash-receipt-heading">현금영수증</h2>');
    for (const words of ['발급 용도', '소득공제 (휴대폰번호)', '지출증빙 (사업자등록번호)', '현금영수증 신청']) {
      expect(korean.page.text).toContain(words);
    }
    expect(korean.page.text).toContain(`action="${korean.path}/cash-receipt#cash-receipt"`);
    expect(korean.page.text).not.toContain('<script');
    const english = await openScreen(payment.payUrl, 'en');
    for (const words of [
      'Cash receipt',
      'Income deduction (mobile number)',
      'Expense proof (business registration number)',
      'Ask for a cash receipt',
    ]) {
      expect(english.page.text).toContain(words);
    }
  });

  it('keeps a mobile number asked for, shows it masked until the payment completes, then issues the receipt', async () => {
    const payment = await createPayment(api, merchant);
    const screen = await openScreen(payment.payUrl);
    const asked = await screen.post({ type: 'income_deduction', identityNumber: MOBILE }).expect(303);
    expect(asked.headers.location).toBe(`${screen.path}#cash-receipt`);
    expect(asked.text).not.toContain(MOBILE_DIGITS);

    const page = await screen.view().expect(200);
    expect(page.text).toContain('현금영수증을 신청했습니다');
    expect(page.text).toContain('<dd>소득공제</dd>');
    expect(page.text).toContain('<span class="code" id="cash-receipt-asked-number">*******5678</span>');
    // The number is never whole on the page (nor typed back into the field), only its last four.
    expect(page.text).not.toContain(MOBILE_DIGITS);
    expect(page.text).not.toContain(MOBILE);
    expect(page.text).toContain('신청 내용 변경');

    // Sealed at rest: no digits of it but the mask's on the row.
    const row = await askedOnRow(payment.id);
    expect(row.cash_receipt_type).toBe('income_deduction');
    expect(row.cash_receipt_identity_masked).toBe('*******5678');
    expect(row.cash_receipt_identity_sealed).not.toContain(MOBILE_DIGITS);

    // Not a receipt until the payment completes.
    const before = await api.as(merchant).get(`/v1/cash-receipts?paymentId=${payment.id}`).expect(200);
    expect(before.body.data).toEqual([]);
    await api.as(merchant).post(`/v1/test-helpers/payments/${payment.id}/complete`).expect(200);
    const receipts = await api.as(merchant).get(`/v1/cash-receipts?paymentId=${payment.id}`).expect(200);
    expect(receipts.body.data).toEqual([
      expect.objectContaining({
        paymentId: payment.id,
        transactionType: 'issue',
        type: 'income_deduction',
        identityNumber: '*******5678',
        selfIssued: false,
        amount: 15_000,
        status: 'issued',
        issueNumber: expect.stringMatching(/^\d{9}$/),
      }),
    ]);
    // Completed: the screen sends its user back and the form is gone.
    const finished = await screen.view().expect(303);
    expect(finished.text).not.toContain('cash-receipt');
    // The posts were logged (their request lines), the number in none of the app's lines.
    expect(log.lines.some((line) => line.includes('/p/:suffix/cash-receipt'))).toBe(true);
    expect(log.lines.join('\n')).not.toContain(MOBILE_DIGITS);
  });

  it('takes the failing test number, whose receipt fails at completion as the API documents', async () => {
    const payment = await createPayment(api, merchant);
    const screen = await openScreen(payment.payUrl);
    await screen.post({ type: 'income_deduction', identityNumber: '010-0000-0000' }).expect(303);
    await api.as(merchant).post(`/v1/test-helpers/payments/${payment.id}/complete`).expect(200);
    const receipts = await api.as(merchant).get(`/v1/cash-receipts?paymentId=${payment.id}`).expect(200);
    expect(receipts.body.data).toEqual([
      expect.objectContaining({ identityNumber: '*******0000', status: 'failed', failureReason: 'identity_rejected' }),
    ]);
  });

  it('changes the request: the last one asked is the one the receipt is made for', async () => {
    const payment = await createPayment(api, merchant);
    const screen = await openScreen(payment.payUrl, 'en');
    await screen.post({ type: 'income_deduction', identityNumber: MOBILE }).expect(303);
    const first = await screen.view().expect(200);
    expect(first.text).toContain('Save the change');
    await screen.post({ type: 'expense_proof', identityNumber: BUSINESS }).expect(303);
    const page = await screen.view().expect(200);
    expect(page.text).toContain('<dd>Expense proof</dd>');
    expect(page.text).toContain('******2517');
    expect(page.text).not.toContain(BUSINESS_DIGITS);
    expect(page.text).toMatch(/value="expense_proof" checked/);

    await api.as(merchant).post(`/v1/test-helpers/payments/${payment.id}/complete`).expect(200);
    const receipts = await api.as(merchant).get(`/v1/cash-receipts?paymentId=${payment.id}`).expect(200);
    expect(receipts.body.data).toEqual([
      expect.objectContaining({ type: 'expense_proof', identityNumber: '******2517', status: 'issued' }),
    ]);
    expect(log.lines.join('\n')).not.toContain(BUSINESS_DIGITS);
  });

  it.each([
    ['an empty number', { type: 'income_deduction', identityNumber: '' }, '현금영수증을 받을 번호를 입력해 주세요.'],
    ['a landline number', { type: 'income_deduction', identityNumber: '02-1234-5678' }, '휴대폰번호(01로 시작하는'],
    ['letters', { type: 'income_deduction', identityNumber: '010-1234-567O' }, '휴대폰번호(01로 시작하는'],
    [
      'a wrong check digit',
      { type: 'expense_proof', identityNumber: '220-81-62518' },
      '올바른 사업자등록번호가 아닙니다',
    ],
    [
      'a mobile number as proof of expense',
      { type: 'expense_proof', identityNumber: MOBILE },
      '올바른 사업자등록번호가',
    ],
    ['an endless number', { type: 'expense_proof', identityNumber: '1'.repeat(6000) }, '올바른 사업자등록번호가'],
    [
      'the number twice',
      { type: 'income_deduction', identityNumber: [MOBILE, MOBILE] },
      '현금영수증을 받을 번호를 입력해 주세요.',
    ],
  ])(
    'answers %s with the screen again, 400, the message tied to the field, and keeps nothing',
    async (_name, fields, message) => {
      const payment = await createPayment(api, merchant);
      const screen = await openScreen(payment.payUrl);
      const answer = await screen.post(fields).expect(400);
      expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(answer.headers['cache-control']).toBe('no-store');
      expect(answer.text).toMatch(/<title>오류: /);
      expect(answer.text).toMatch(new RegExp(`<p class="field-error" id="identity-number-error">${escape(message)}`));
      expect(answer.text).toContain('aria-describedby="identity-number-error identity-number-hint"');
      expect(answer.text).toContain('aria-invalid="true"');
      expect(answer.text).toMatch(new RegExp(`value="${fields.type}" checked`));
      // What was typed does not come back.
      const typed = ([] as unknown[]).concat(fields.identityNumber).join('');
      if (typed) expect(answer.text).not.toContain(typed);
      expect(await askedOnRow(payment.id)).toEqual({
        cash_receipt_type: null,
        cash_receipt_identity_masked: null,
        cash_receipt_identity_sealed: null,
      });
      // Still the payment's screen, whose form posts again with the answer's own token.
      expect(answer.text).toContain('₩15,000');
      const csrf = /name="csrf" value="([^"]+)"/.exec(answer.text)![1];
      await screen.post({ csrf, type: 'income_deduction', identityNumber: MOBILE }).expect(303);
      expect((await askedOnRow(payment.id)).cash_receipt_identity_masked).toBe('*******5678');
    },
  );

  it('sends a GET of the form’s address (a page sent back with an error, opened again) to the screen’s form', async () => {
    const payment = await createPayment(api, merchant);
    const path = new URL(payment.payUrl).pathname;
    const answer = await api.http().get(`${path}/cash-receipt`).expect(303);
    expect(answer.headers.location).toBe(`${path}#cash-receipt`);
  });

  it('says what is wrong in English to an English browser, and answers an unknown type at the choice', async () => {
    const payment = await createPayment(api, merchant);
    const screen = await openScreen(payment.payUrl, 'en');
    const wrong = await screen.post({ type: 'expense_proof', identityNumber: '220-81-62518' }).expect(400);
    expect(wrong.text).toMatch(/<title>Error: /);
    expect(wrong.text).toContain('This is not a valid business registration number');
    const unknown = await screen.post({ type: 'tax_refund', identityNumber: MOBILE }).expect(400);
    expect(unknown.text).toContain('<fieldset aria-describedby="cash-receipt-type-error">');
    expect(unknown.text).toContain('Choose what the receipt is for.');
    const none = await screen.post({ identityNumber: MOBILE }).expect(400);
    expect(none.text).toContain('Choose what the receipt is for.');
    expect((await askedOnRow(payment.id)).cash_receipt_type).toBeNull();
  });

  it('refuses a post without the screen’s cookie and token, and keeps nothing', async () => {
    const payment = await createPayment(api, merchant);
    const screen = await openScreen(payment.payUrl, 'en');
    // A token of another payment's screen is not this one's.
    const other = await openScreen((await createPayment(api, merchant)).payUrl, 'en');
    const fields = { type: 'income_deduction', identityNumber: MOBILE };
    const attempts = [
      api
        .http()
        .post(`${screen.path}/cash-receipt`)
        .type('form')
        .send({ csrf: screen.csrf, ...fields }),
      api.http().post(`${screen.path}/cash-receipt`).set('Cookie', screen.cookie).type('form').send(fields),
      screen.post({ ...fields, csrf: `${screen.csrf.slice(0, -1)}x` }),
      screen.post({ ...fields, csrf: other.csrf }, { cookie: other.cookie }),
      screen.post(fields, { cookie: 'payhook_csrf=forged' }),
    ];
    for (const attempt of attempts) {
      const answer = await attempt;
      expect(answer.status).toBe(403);
      expect(answer.text).not.toContain(MOBILE);
    }
    expect((await askedOnRow(payment.id)).cash_receipt_type).toBeNull();
  });

  it.each(['completed', 'canceled', 'expired'])(
    'sends the user back (303) from a payment that is %s, and keeps nothing',
    async (status) => {
      const payment = await createPayment(api, merchant);
      const screen = await openScreen(payment.payUrl);
      if (status === 'expired') {
        await api.sql(`UPDATE payments SET expires_at = now() - interval '1 second' WHERE id = $1`, [payment.id]);
      } else {
        await api.sql(`UPDATE payments SET status = $2 WHERE id = $1`, [payment.id, status]);
      }
      const answer = await screen.post({ type: 'income_deduction', identityNumber: MOBILE }).expect(303);
      const back = new URL(answer.headers.location);
      expect(`${back.origin}${back.pathname}`).toBe('https://shop.example/return');
      expect(Object.fromEntries(back.searchParams)).toEqual({
        cart: '7',
        paymentId: payment.id,
        orderId: payment.orderId,
        status,
      });
      expect((await askedOnRow(payment.id)).cash_receipt_type).toBeNull();
    },
  );

  it('works on a live payment too: the receipt waits in the operator’s queue, whole only there', async () => {
    const live = await api.merchantWithKey('live', { live: true });
    const payment = await createPayment(api, live);
    const screen = await openScreen(payment.payUrl, 'en');
    expect(screen.page.text).not.toContain('TEST MODE');
    expect(screen.page.text).toContain('Ask for a cash receipt');
    await screen.post({ type: 'expense_proof', identityNumber: BUSINESS }).expect(303);
    const page = await screen.view().expect(200);
    expect(page.text).toContain('******2517');
    expect(page.text).not.toContain(BUSINESS_DIGITS);

    await api.admin().post(`/admin/v1/payments/${payment.id}/confirm-receipt`).expect(200);
    const receipts = await api.as(live).get(`/v1/cash-receipts?paymentId=${payment.id}`).expect(200);
    expect(receipts.body.data).toEqual([
      expect.objectContaining({
        type: 'expense_proof',
        identityNumber: '******2517',
        status: 'pending',
        livemode: true,
      }),
    ]);
    const queue = await api.admin().get('/admin/v1/cash-receipts?status=pending').expect(200);
    const mine = (queue.body.data as { paymentId: string; identityNumber: string }[]).find(
      (receipt) => receipt.paymentId === payment.id,
    );
    expect(mine?.identityNumber).toBe(BUSINESS_DIGITS);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
