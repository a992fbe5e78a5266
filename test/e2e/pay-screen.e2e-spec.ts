import { PaymentsApiHarness, paymentBody, type TestMerchant } from '../support/payments-api.harness';

/** Cookie and hidden CSRF field of a rendered payment page. */
function formSecrets(response: { headers: Record<string, unknown>; text: string }): { cookie: string; csrf: string } {
  const setCookie = (response.headers['set-cookie'] as string[]).find((value) => value.startsWith('payhook_csrf='))!;
  const csrf = /name="csrf" value="([^"]+)"/.exec(response.text)![1];
  return { cookie: setCookie.split(';')[0], csrf };
}

describe('payment screen /p/{suffix}', () => {
  let api: PaymentsApiHarness;
  let merchant: TestMerchant;

  beforeAll(async () => {
    api = await PaymentsApiHarness.start();
  });
  afterAll(() => api.stop());
  beforeEach(async () => {
    merchant = await api.merchantWithKey('test');
  });

  async function createPayment(overrides: Record<string, unknown> = {}) {
    const created = await api
      .as(merchant)
      .post('/v1/payments')
      .set('Idempotency-Key', `k-${Math.random()}`)
      .send(paymentBody({ returnUrl: 'https://shop.example/done?cart=9', ...overrides }))
      .expect(201);
    const payment = created.body.data as { id: string; orderId: string; payUrl: string };
    return { ...payment, path: new URL(payment.payUrl).pathname };
  }

  it('shows the merchant, order, amount, deadline and a TEST banner with three buttons, in English when asked', async () => {
    const payment = await createPayment({ amount: 15000 });
    const page = await api.http().get(payment.path).set('Accept-Language', 'en-US,en;q=0.9').expect(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-language']).toBe('en');
    expect(page.text).toContain('<html lang="en">');
    expect(page.text).toContain('Test Shop');
    expect(page.text).toContain(payment.orderId);
    expect(page.text).toContain('₩15,000');
    expect(page.text).toContain('TEST MODE');
    // A time on the merchant's clock, not a countdown that goes stale.
    expect(page.text).toMatch(/<time datetime="[^"]+">until \d\d:\d\d( on [A-Z][a-z]+ \d+)?<\/time>/);
    expect(page.text).toContain('Complete payment');
    expect(page.text).toContain('Fail payment');
    expect(page.text).toContain('Cancel');
    expect(page.text).not.toContain('<script');
    // Below the buttons, as on a live screen: a test deposit or voucher completes the payment out of sight.
    const check = page.text.indexOf(`<a class="button secondary" href="${payment.path}">Check for my payment</a>`);
    expect(check).toBeGreaterThan(page.text.lastIndexOf('</form>'));
    // The transfer's details come before the check, the instruction first of them.
    const transfer = page.text.indexOf('Send exactly ₩15,000 and enter the code');
    expect(transfer).toBeGreaterThan(0);
    expect(transfer).toBeLessThan(page.text.indexOf('id="deposit-code"'));
    expect(page.text.indexOf('id="deposit-code"')).toBeLessThan(check);
  });

  it('speaks Korean by default and to a browser that prefers neither language', async () => {
    const payment = await createPayment({ amount: 15000 });
    for (const language of [undefined, 'ko-KR,ko;q=0.9,en;q=0.8', 'fr-FR']) {
      const request = api.http().get(payment.path);
      const page = await (language ? request.set('Accept-Language', language) : request).expect(200);
      expect(page.headers['content-language']).toBe('ko');
      expect(page.headers.vary).toContain('Accept-Language');
      expect(page.text).toContain('<html lang="ko">');
      expect(page.text).toContain('테스트 모드');
      expect(page.text).toMatch(/<time datetime="[^"]+">(\d+월 \d+일 )?\d\d:\d\d까지<\/time>/);
      for (const word of [
        '무통장입금',
        '입금은행',
        '계좌번호',
        '예금주',
        '입금자명',
        '입금 확인',
        '완료',
        '실패',
        '취소',
      ]) {
        expect(page.text).toContain(word);
      }
      expect(page.text).toContain('₩15,000');
      expect(page.text).not.toContain('Complete payment');
      expect(page.text).toContain(`<a href="${payment.path}?lang=en" hreflang="en" lang="en">English</a>`);
    }
  });

  it('switches language for the visit: ?lang= sets a session cookie on the screen path and 303s to the page', async () => {
    const payment = await createPayment();
    for (const [path, lang] of [
      [payment.path, 'en'],
      [`${payment.path}/vouchers`, 'en'],
      [payment.path, 'ko'],
    ]) {
      const switched = await api.http().get(`${path}?lang=${lang}`).set('Accept-Language', 'ko').expect(303);
      expect(switched.headers.location).toBe(path);
      const cookie = (switched.headers['set-cookie'] as unknown as string[]).find((c) =>
        c.startsWith('payhook_lang='),
      )!;
      expect(cookie).toMatch(new RegExp(`^payhook_lang=${lang}; Path=/p/; HttpOnly; SameSite=Lax$`));
      // The cookie wins over the browser's preference.
      const other = lang === 'en' ? 'ko' : 'en';
      const page = await api
        .http()
        .get(path)
        .set('Cookie', cookie.split(';')[0])
        .set('Accept-Language', other)
        .expect(200);
      expect(page.text).toContain(`<html lang="${lang}">`);
      expect(page.text).toContain(`?lang=${other}"`);
    }
    // Anything else in lang is ignored.
    await api.http().get(`${payment.path}?lang=fr`).expect(200);
  });

  it('sends the protective headers', async () => {
    const payment = await createPayment();
    const page = await api.http().get(payment.path).expect(200);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    const csp = page.headers['content-security-policy'];
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toMatch(/style-src 'nonce-[^']+'/);
    expect(csp).not.toContain('unsafe-inline');
    const nonce = /style-src 'nonce-([^']+)'/.exec(csp)![1];
    expect(page.text).toContain(`<style nonce="${nonce}">`);
    const cookie = String(page.headers['set-cookie']);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Strict/i);
  });

  it('answers an unknown or malformed suffix with a 404 page that names no payment', async () => {
    const payment = await createPayment();
    for (const path of ['/p/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', '/p/short', `/p/${payment.id}`, '/p/%3Cscript%3E']) {
      const page = await api.http().get(path).set('Accept-Language', 'en').expect(404);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.headers['cache-control']).toBe('no-store');
      expect(page.text).toContain('Payment not found');
      const korean = await api.http().get(path).expect(404);
      expect(korean.text).toContain('결제 정보를 찾을 수 없습니다');
      expect(korean.text).toContain('<html lang="ko">');
      expect(page.text).not.toContain(payment.orderId);
    }
  });

  it.each([
    ['complete', 'completed'],
    ['fail', 'failed'],
    ['cancel', 'canceled'],
  ])(
    '%s moves the payment and sends the user back (303) with paymentId, orderId and status',
    async (action, status) => {
      const payment = await createPayment();
      const { cookie, csrf } = formSecrets(await api.http().get(payment.path).expect(200));
      const response = await api
        .http()
        .post(`${payment.path}/${action}`)
        .set('Cookie', cookie)
        .type('form')
        .send({ csrf })
        .expect(303);
      const location = new URL(response.headers.location);
      expect(`${location.origin}${location.pathname}`).toBe('https://shop.example/done');
      expect(Object.fromEntries(location.searchParams)).toEqual({
        cart: '9',
        paymentId: payment.id,
        orderId: payment.orderId,
        status,
      });
      const stored = await api.as(merchant).get(`/v1/payments/${payment.id}`).expect(200);
      expect(stored.body.data.status).toBe(status);
    },
  );

  it('writes the same payment.completed event as the test helper when Complete is pressed', async () => {
    // With an endpoint to deliver to, the event gets its outbox row as the helper's does.
    await api.as(merchant).put('/v1/webhook-endpoint').send({ url: 'https://shop.example/hooks' }).expect(200);
    const payment = await createPayment();
    const { cookie, csrf } = formSecrets(await api.http().get(payment.path).expect(200));
    await api.http().post(`${payment.path}/complete`).set('Cookie', cookie).type('form').send({ csrf }).expect(303);
    const events = await api.as(merchant).get(`/v1/events?paymentId=${payment.id}`).expect(200);
    expect(events.body.data).toHaveLength(1);
    expect(events.body.data[0]).toMatchObject({ type: 'payment.completed', data: { paymentId: payment.id } });
    const outbox = await api.sql(`SELECT payload FROM outbox WHERE payload LIKE $1`, [`%${events.body.data[0].id}%`]);
    expect(outbox).toHaveLength(1);
  });

  it('refuses an action with a missing or wrong CSRF token and changes nothing', async () => {
    const payment = await createPayment();
    const { cookie, csrf } = formSecrets(await api.http().get(payment.path).expect(200));
    const attempts = [
      api.http().post(`${payment.path}/complete`).type('form').send({ csrf }),
      api.http().post(`${payment.path}/complete`).set('Cookie', cookie).type('form').send({}),
      api
        .http()
        .post(`${payment.path}/complete`)
        .set('Cookie', cookie)
        .type('form')
        .send({ csrf: `${csrf.slice(1)}x` }),
      api
        .http()
        .post(`${payment.path}/complete`)
        .set('Cookie', 'payhook_csrf=forged')
        .type('form')
        .send({ csrf: 'forged2' }),
    ];
    for (const attempt of attempts) await expect(attempt).resolves.toMatchObject({ status: 403 });
    const stored = await api.as(merchant).get(`/v1/payments/${payment.id}`).expect(200);
    expect(stored.body.data.status).toBe('pending');
  });

  it.each(['completed', 'failed', 'canceled', 'expired'])(
    'sends the user of a %s payment back (303), shows its final state, and an action on it changes nothing',
    async (status) => {
      const payment = await createPayment();
      const { cookie, csrf } = formSecrets(await api.http().get(payment.path).expect(200));
      await api.sql(`UPDATE payments SET status = $2 WHERE id = $1`, [payment.id, status]);
      const page = await api.http().get(payment.path).set('Accept-Language', 'en').expect(303);
      const back = new URL(page.headers.location);
      expect(`${back.origin}${back.pathname}`).toBe('https://shop.example/done');
      expect(Object.fromEntries(back.searchParams)).toEqual({
        cart: '9',
        paymentId: payment.id,
        orderId: payment.orderId,
        status,
      });
      expect(page.headers['cache-control']).toBe('no-store');
      expect(page.text).not.toContain('Complete payment');
      expect(page.text).toContain('Return to Test Shop');
      expect(page.text).toContain(`status=${status}`);
      const response = await api
        .http()
        .post(`${payment.path}/complete`)
        .set('Cookie', cookie)
        .type('form')
        .send({ csrf })
        .expect(303);
      expect(new URL(response.headers.location).searchParams.get('status')).toBe(status);
      const rows = await api.sql<{ status: string }>(`SELECT status FROM payments WHERE id = $1`, [payment.id]);
      expect(rows[0].status).toBe(status);
      const events = await api.as(merchant).get(`/v1/events?paymentId=${payment.id}`).expect(200);
      expect(events.body.data).toHaveLength(0);
    },
  );

  it('shows a pending payment past expiresAt as expired', async () => {
    const payment = await createPayment();
    await api.sql(`UPDATE payments SET expires_at = now() - interval '1 second' WHERE id = $1`, [payment.id]);
    const page = await api.http().get(payment.path).set('Accept-Language', 'en').expect(303);
    expect(new URL(page.headers.location).searchParams.get('status')).toBe('expired');
    expect(page.text).toContain('Expired');
    const korean = await api.http().get(payment.path).expect(303);
    expect(korean.text).toContain('결제 기한 만료');
    expect(korean.text).toContain('Test Shop 페이지로 돌아가기');
    expect(page.text).not.toContain('Complete payment');
  });

  it('shows a live payment as waiting for funds, with a check link and no self-refresh or test buttons', async () => {
    const live = await api.merchantWithKey('live', { live: true });
    const created = await api
      .as(live)
      .post('/v1/payments')
      .set('Idempotency-Key', `k-${Math.random()}`)
      .send(paymentBody({ amount: 1234567 }))
      .expect(201);
    const path = new URL(created.body.data.payUrl as string).pathname;
    const page = await api.http().get(path).set('Accept-Language', 'en').expect(200);
    expect(page.text).toContain('Send exactly ₩1,234,567 and enter the code');
    expect(page.text).not.toContain('http-equiv="refresh"');
    expect(page.text).toContain(`<a class="button" href="${path}">Check for my payment</a>`);
    expect(page.text).not.toContain('TEST MODE');
    // No test buttons: the screen's one form is the cash receipt's (pay-screen-cash-receipt.e2e-spec.ts).
    expect(page.text.match(/<form [^>]*>/g)).toEqual([
      `<form method="post" action="${path}/cash-receipt#cash-receipt">`,
    ]);
    // Even with a genuine token for this payment (from its voucher form), Complete is refused.
    const { cookie, csrf } = formSecrets(await api.http().get(`${path}/vouchers`).expect(200));
    const refused = await api
      .http()
      .post(`${path}/complete`)
      .set('Cookie', cookie)
      .set('Accept-Language', 'en')
      .type('form')
      .send({ csrf });
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('Live payments complete when the funds arrive.');
    const korean = await api.http().post(`${path}/complete`).set('Cookie', cookie).type('form').send({ csrf });
    expect(korean.status).toBe(403);
    expect(korean.text).toContain('실제 결제는 입금이 확인되어야 완료됩니다.');
    const stored = await api.as(live).get(`/v1/payments/${created.body.data.id}`).expect(200);
    expect(stored.body.data.status).toBe('pending');

    // Once the operator confirms the funds, the next check takes the user back.
    await api.admin().post(`/admin/v1/payments/${created.body.data.id}/confirm-receipt`).expect(200);
    const back = await api.http().get(path).expect(303);
    expect(new URL(back.headers.location).searchParams.get('status')).toBe('completed');
  });

  it('escapes what the merchant controls', async () => {
    const created = await api
      .admin()
      .post('/admin/v1/merchants')
      .send({ name: '<img src=x onerror=alert(1)>' })
      .expect(201);
    const { key } = await api.issueKey(created.body.data.id as string, 'test');
    const response = await api
      .as({ key })
      .post('/v1/payments')
      .set('Idempotency-Key', 'k1')
      .send(paymentBody())
      .expect(201);
    const page = await api
      .http()
      .get(new URL(response.body.data.payUrl as string).pathname)
      .expect(200);
    expect(page.text).not.toContain('<img src=x');
    expect(page.text).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });
});
