import { Writable } from 'node:stream';
import type { Response } from 'supertest';
import { SHIPMENT, shippedEscrow, type ShippedEscrow } from '../support/escrow-buyer';
import { PaymentsApiHarness, type TestMerchant } from '../support/payments-api.harness';
import { SmtpInbox } from '../support/smtp-inbox';
import { timeFor } from '../support/time-budget';

/** Every line the API writes (request lines at info), as the log pipeline would receive it. */
class CapturedLines extends Writable {
  readonly lines: string[] = [];

  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    this.lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    done();
  }
}

/** The day an instant falls on in Korea, as each language writes it. */
const koreanDay = (iso: string, locale: 'ko' | 'en') =>
  new Intl.DateTimeFormat(locale, { timeZone: 'Asia/Seoul', year: 'numeric', month: 'long', day: 'numeric' }).format(
    new Date(iso),
  );

/** A page's text without its tags, white space as one space: what a reader reads. */
const textOf = (page: string) =>
  page
    .replace(/<style[^>]*>[\s\S]*?<\/style>/, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, ' ');

/** A page's body with its one nonce taken out: two answers compared as the bytes a reader gets. */
const withoutNonce = (page: Response) => page.text.replace(/nonce="[^"]+"/, 'nonce=""');

interface OpenPage {
  page: Response;
  /** The CSRF cookie, as `name=value`. */
  cookie: string;
  csrf: string;
}

/**
 * The escrow buyer's page (/e/{token}, issue 52) over HTTP, as a browser without script uses it:
 * the e-mailed link opened, the forms sent with the page's cookie and CSRF token. Each test ships an
 * escrow of its own merchant; the API sends the buyer's e-mail to a real SMTP server.
 */
describe("escrow buyer's page /e/{token}", () => {
  let inbox: SmtpInbox;
  let api: PaymentsApiHarness;
  let merchant: TestMerchant;
  const log = new CapturedLines();
  /** Every token this spec was e-mailed: none may reach a log line. */
  const tokens: string[] = [];

  beforeAll(
    async () => {
      inbox = await SmtpInbox.start();
      api = await PaymentsApiHarness.start(
        { SMTP_URL: inbox.url, LOG_FORMAT: 'json', LOG_LEVEL: 'info' },
        undefined,
        log,
      );
    },
    timeFor({ app: 1 }),
  );
  afterAll(async () => {
    await api.stop();
    await inbox.stop();
  });
  beforeEach(async () => {
    merchant = await api.merchantWithKey('test');
  });

  async function ship(): Promise<ShippedEscrow> {
    const escrow = await shippedEscrow(api, merchant, inbox);
    tokens.push(escrow.token);
    return escrow;
  }

  async function open(path: string, language = 'ko'): Promise<OpenPage> {
    const page = await api.http().get(path).set('Accept-Language', language).expect(200);
    const cookie = (page.headers['set-cookie'] as unknown as string[])
      .find((value) => value.startsWith('payhook_csrf='))!
      .split(';')[0];
    const csrf = /name="csrf" value="([^"]+)"/.exec(page.text)![1];
    return { page, cookie, csrf };
  }

  function post(path: string, form: { cookie?: string; fields: Record<string, string>; language?: string }) {
    const request = api
      .http()
      .post(path)
      .set('Accept-Language', form.language ?? 'ko');
    return (form.cookie ? request.set('Cookie', form.cookie) : request).type('form').send(form.fields);
  }

  const paymentOf = async (id: string) => (await api.as(merchant).get(`/v1/payments/${id}`).expect(200)).body.data;
  const eventsOf = async (id: string) =>
    (await api.as(merchant).get(`/v1/events?paymentId=${id}`).expect(200)).body.data as {
      type: string;
      data: Record<string, unknown>;
    }[];
  const settlementsOf = async (id: string) =>
    ((await api.as(merchant).get('/v1/settlements').expect(200)).body.data as { paymentId: string }[]).filter(
      (record) => record.paymentId === id,
    );

  /** The operator's open review cases of a payment, from the whole queue (oldest first, paged). */
  async function reviewCasesOf(paymentId: string): Promise<Record<string, unknown>[]> {
    const found: Record<string, unknown>[] = [];
    let cursor: string | null = null;
    do {
      const listed: Response = await api
        .admin()
        .get('/admin/v1/reviews')
        .query({ status: 'open', limit: '100', ...(cursor ? { cursor } : {}) })
        .expect(200);
      found.push(...(listed.body.data as Record<string, unknown>[]).filter((item) => item.paymentId === paymentId));
      cursor = listed.body.nextCursor as string | null;
    } while (cursor);
    return found;
  }

  it('shows the seller, order, amount, shipment, status and auto-confirm day in Korean, and in English when asked', async () => {
    const escrow = await ship();
    const { autoConfirmAt } = (await paymentOf(escrow.id)).escrow as { autoConfirmAt: string };
    expect(escrow.link).toBe(`http://pay.test${escrow.path}`);

    const ko = await open(escrow.path);
    expect(ko.page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(ko.page.headers['content-language']).toBe('ko');
    expect(ko.page.headers.vary).toContain('Accept-Language');
    const korean = textOf(ko.page.text);
    for (const shown of [
      'Test Shop 주문 상품',
      '₩15,000',
      `주문번호 ${escrow.orderId}`,
      `택배사 ${SHIPMENT.carrier}`,
      `운송장 번호 ${SHIPMENT.trackingNumber}`,
      '상태 배송 중 · 구매 확정 대기',
      `${koreanDay(autoConfirmAt, 'ko')} 00:00(한국 시간)까지 아무것도 하지 않으시면 구매가 자동으로 확정됩니다.`,
      '구매 확정',
      '거절 사유',
      '구매 거절',
      '테스트 모드',
    ]) {
      expect(korean).toContain(shown);
    }
    expect(ko.page.text).toContain(`<time datetime="${autoConfirmAt}">`);
    expect(ko.page.text).toContain(`<a href="${escrow.path}?lang=en" hreflang="en" lang="en">English</a>`);

    const en = await open(escrow.path, 'en-US,en;q=0.9');
    expect(en.page.headers['content-language']).toBe('en');
    const english = textOf(en.page.text);
    for (const shown of [
      'Your order from Test Shop',
      'Amount paid ₩15,000',
      `Order ${escrow.orderId}`,
      `Carrier ${SHIPMENT.carrier}`,
      `Tracking number ${SHIPMENT.trackingNumber}`,
      'Status Shipped · waiting for your confirmation',
      `the purchase confirms by itself at 00:00 Korea time on ${koreanDay(autoConfirmAt, 'en')}`,
      'Confirm the purchase',
      'Reject the purchase',
    ]) {
      expect(english).toContain(shown);
    }

    // The language link: kept for the visit on the page's path only, then the page again.
    const switched = await api.http().get(`${escrow.path}?lang=en`).set('Accept-Language', 'ko').expect(303);
    expect(switched.headers.location).toBe(escrow.path);
    const cookie = (switched.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith('payhook_lang='))!;
    expect(cookie).toBe('payhook_lang=en; Path=/e/; HttpOnly; SameSite=Lax');
    const chosen = await api
      .http()
      .get(escrow.path)
      .set('Cookie', cookie.split(';')[0])
      .set('Accept-Language', 'ko')
      .expect(200);
    expect(chosen.text).toContain('<html lang="en">');
  });

  it("sends the payment screen's protective headers, and no script", async () => {
    const escrow = await ship();
    const { page } = await open(escrow.path);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    const csp = page.headers['content-security-policy'];
    const nonce = /style-src 'nonce-([^']+)'/.exec(csp)![1];
    expect(csp).toBe(
      `default-src 'none'; style-src 'nonce-${nonce}'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
    );
    expect(page.text).not.toContain('<script');
    expect(page.text).toContain('<meta name="robots" content="noindex" />');
    const cookie = (page.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith('payhook_csrf='))!;
    expect(cookie).toMatch(/^payhook_csrf=[A-Za-z0-9_-]{32}; Path=\/e\/; HttpOnly; SameSite=Strict$/);
  });

  it('confirms once: the escrow confirmed, one escrow.confirmed event, the payout scheduled; a second confirm or a reject changes nothing', async () => {
    const escrow = await ship();
    expect(await settlementsOf(escrow.id)).toEqual([
      expect.objectContaining({ payoutStatus: 'held', payoutDate: null }),
    ]);
    const { cookie, csrf } = await open(escrow.path);

    const confirmed = await post(`${escrow.path}/confirm`, { cookie, fields: { csrf } }).expect(303);
    // Back to the page itself, on this site: the token goes to no other.
    expect(confirmed.headers.location).toBe(escrow.path);
    const after = await api.http().get(escrow.path).set('Accept-Language', 'en').expect(200);
    expect(textOf(after.text)).toMatch(/You confirmed the purchase on \w+ \d+, \d{4} at \d\d:\d\d Korea time\./);
    expect(textOf(after.text)).toContain('Status Purchase confirmed');
    expect(after.text).not.toContain('<form');

    const payment = await paymentOf(escrow.id);
    expect(payment.escrow).toMatchObject({ status: 'confirmed', rejectedAt: null, rejectReason: null });
    expect(payment.escrow.confirmedAt).toEqual(expect.any(String));
    const confirmedEvents = (await eventsOf(escrow.id)).filter((event) => event.type.startsWith('escrow.'));
    expect(confirmedEvents).toEqual([
      expect.objectContaining({
        type: 'escrow.confirmed',
        data: expect.objectContaining({ paymentId: escrow.id, status: 'confirmed', autoConfirmed: false }),
      }),
    ]);
    expect(await settlementsOf(escrow.id)).toEqual([
      expect.objectContaining({ payoutStatus: 'scheduled', payoutDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) }),
    ]);

    // The same forms again (another tab, the history): refused as they stand, nothing changed.
    const again = await post(`${escrow.path}/confirm`, { cookie, fields: { csrf }, language: 'en' }).expect(409);
    expect(again.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(again.headers['cache-control']).toBe('no-store');
    expect(textOf(again.text)).toContain('This purchase was already confirmed: nothing changed.');
    const rejectAfter = await post(`${escrow.path}/reject`, {
      cookie,
      fields: { csrf, reason: '마음이 바뀌었습니다' },
    }).expect(409);
    expect(textOf(rejectAfter.text)).toContain('이 구매는 이미 확정되었습니다. 아무것도 바뀌지 않았습니다.');
    expect(rejectAfter.text).not.toContain('<form');

    expect((await paymentOf(escrow.id)).escrow).toEqual(payment.escrow);
    expect((await eventsOf(escrow.id)).filter((event) => event.type.startsWith('escrow.'))).toHaveLength(1);
    expect(await reviewCasesOf(escrow.id)).toEqual([]);

    // The token is in no API answer.
    for (const path of [`/v1/payments/${escrow.id}`, `/v1/events?paymentId=${escrow.id}`, '/v1/settlements']) {
      expect((await api.as(merchant).get(path).expect(200)).text).not.toContain(escrow.token);
    }
  });

  it('rejects with a reason: the escrow rejected with it, an escrow_rejected review case, the payout held; a confirm after it changes nothing', async () => {
    const escrow = await ship();
    const { cookie, csrf } = await open(escrow.path);
    const reason = '상자가 찌그러진 채로 도착했고\r\n내용물이 깨져 있었습니다 <사진 있음>';

    const rejected = await post(`${escrow.path}/reject`, { cookie, fields: { csrf, reason } }).expect(303);
    expect(rejected.headers.location).toBe(escrow.path);
    const after = await api.http().get(escrow.path).expect(200);
    const text = textOf(after.text);
    expect(text).toMatch(/\d{4}년 \d+월 \d+일 \d\d:\d\d\(한국 시간\)에 구매를 거절했습니다\./);
    expect(text).toContain('상태 구매 거절');
    // Kept as typed, its line break as one LF, its markup as text.
    expect(after.text).toContain('상자가 찌그러진 채로 도착했고\n내용물이 깨져 있었습니다 &lt;사진 있음&gt;');
    expect(after.text).not.toContain('<form');

    const payment = await paymentOf(escrow.id);
    expect(payment.escrow).toMatchObject({
      status: 'rejected',
      confirmedAt: null,
      rejectReason: '상자가 찌그러진 채로 도착했고\n내용물이 깨져 있었습니다 <사진 있음>',
    });
    expect((await eventsOf(escrow.id)).filter((event) => event.type.startsWith('escrow.'))).toEqual([
      expect.objectContaining({
        type: 'escrow.rejected',
        data: expect.objectContaining({
          status: 'rejected',
          rejectReason: payment.escrow.rejectReason,
          autoConfirmed: null,
        }),
      }),
    ]);
    expect(await reviewCasesOf(escrow.id)).toEqual([
      expect.objectContaining({ source: 'escrow', reason: 'escrow_rejected', status: 'open', amount: 15_000 }),
    ]);
    expect(await settlementsOf(escrow.id)).toEqual([
      expect.objectContaining({ payoutStatus: 'held', payoutDate: null }),
    ]);

    const confirmAfter = await post(`${escrow.path}/confirm`, { cookie, fields: { csrf }, language: 'en' }).expect(409);
    expect(textOf(confirmAfter.text)).toContain('This purchase was already rejected: nothing changed.');
    const rejectAgain = await post(`${escrow.path}/reject`, { cookie, fields: { csrf, reason: '다시' } }).expect(409);
    expect(textOf(rejectAgain.text)).toContain('이 구매는 이미 거절되었습니다.');
    expect((await paymentOf(escrow.id)).escrow).toEqual(payment.escrow);
    expect((await eventsOf(escrow.id)).filter((event) => event.type.startsWith('escrow.'))).toHaveLength(1);
    expect(await reviewCasesOf(escrow.id)).toHaveLength(1);
  });

  it('answers a reason that is not one with 400: the error at the field, the text kept in it, nothing changed', async () => {
    const escrow = await ship();
    const { cookie, csrf } = await open(escrow.path);
    const before = await paymentOf(escrow.id);
    for (const reason of ['', '   ', ' \r\n\t ', '가'.repeat(501), 'a\u0000b', 'bell\u0007']) {
      const page = await post(`${escrow.path}/reject`, { cookie, fields: { csrf, reason }, language: 'en' }).expect(
        400,
      );
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.text).toMatch(/<title>Error: /);
      expect(page.text).toContain('<p class="field-error" id="reject-reason-error">');
      expect(textOf(page.text)).toContain('Write a reason of 1 to 500 characters, not only spaces.');
      expect(page.text).toContain('aria-describedby="reject-reason-error reject-reason-hint"');
      expect(page.text).toContain('aria-invalid="true"');
      const kept = /<textarea[^>]*>\n([\s\S]*?)<\/textarea/.exec(page.text)![1];
      expect(kept).toBe(reason.replace(/\r\n/g, '\n'));
      // A new token for the form sent back.
      expect(page.text).toMatch(/name="csrf" value="[^"]+"/);
    }
    // No reason field at all.
    await post(`${escrow.path}/reject`, { cookie, fields: { csrf } }).expect(400);
    // 500 characters are a reason.
    expect((await paymentOf(escrow.id)).escrow).toEqual(before.escrow);
    expect((await eventsOf(escrow.id)).filter((event) => event.type.startsWith('escrow.'))).toEqual([]);
    await post(`${escrow.path}/reject`, { cookie, fields: { csrf, reason: '가'.repeat(500) } }).expect(303);
    expect((await paymentOf(escrow.id)).escrow.rejectReason).toBe('가'.repeat(500));
  });

  it("refuses a form without this page's CSRF token (403) and changes nothing", async () => {
    const escrow = await ship();
    const other = await ship();
    const { cookie, csrf } = await open(escrow.path);
    const elsewhere = await open(other.path);
    const attempts: { cookie?: string; fields: Record<string, string> }[] = [
      { cookie, fields: {} },
      { cookie, fields: { csrf: '' } },
      { fields: { csrf } },
      { cookie, fields: { csrf: `${csrf}x` } },
      // Another escrow's page's token, with that page's cookie: good for that escrow only.
      { cookie: elsewhere.cookie, fields: { csrf: elsewhere.csrf } },
    ];
    for (const attempt of attempts) {
      for (const form of ['confirm', 'reject']) {
        const fields = form === 'reject' ? { ...attempt.fields, reason: '받지 못했습니다' } : attempt.fields;
        const page = await post(`${escrow.path}/${form}`, { ...attempt, fields, language: 'en' }).expect(403);
        expect(textOf(page.text)).toContain('This form has expired. Open the link in your e-mail again.');
        expect(page.headers['cache-control']).toBe('no-store');
      }
    }
    expect((await paymentOf(escrow.id)).escrow.status).toBe('shipped');
    expect((await eventsOf(escrow.id)).filter((event) => event.type.startsWith('escrow.'))).toEqual([]);
    expect(await reviewCasesOf(escrow.id)).toEqual([]);
  });

  it("answers an unknown or malformed token with the payment screen's own 404, byte for byte", async () => {
    const escrow = await ship();
    for (const language of ['ko', 'en']) {
      const screen = await api
        .http()
        .get(`/p/${'A'.repeat(32)}`)
        .set('Accept-Language', language)
        .expect(404);
      for (const path of [
        `/e/${'A'.repeat(43)}`,
        `/e/${escrow.token.slice(0, -1)}`,
        `/e/${escrow.token}A`,
        `/e/${escrow.id}`,
        '/e/short',
        '/e/%3Cscript%3E',
      ]) {
        const page = await api.http().get(path).set('Accept-Language', language).expect(404);
        for (const header of ['content-type', 'content-language', 'cache-control', 'referrer-policy', 'vary']) {
          expect({ path, header, value: page.headers[header] }).toEqual({
            path,
            header,
            value: screen.headers[header],
          });
        }
        expect(page.headers['set-cookie']).toBeUndefined();
        expect(withoutNonce(page)).toBe(withoutNonce(screen));
      }
    }
  });

  it('serves nothing at a path that differs from /e/ only in case (routing is case-sensitive)', async () => {
    const escrow = await ship();
    await api.http().get(`/E/${escrow.token}`).expect(404);
    const { cookie, csrf } = await open(escrow.path);
    await post(`/E/${escrow.token}/confirm`, { cookie, fields: { csrf } }).expect(404);
    expect((await paymentOf(escrow.id)).escrow.status).toBe('shipped');
  });

  it('never writes a token into a log line, while it logs the requests made with them', () => {
    expect(tokens.length).toBeGreaterThan(5);
    const pageLines = log.lines.filter((line) => line.includes('/e/:token'));
    // The page, its forms and the 404s were all logged, masked.
    expect(pageLines.some((line) => line.includes('"GET /e/:token 200"'))).toBe(true);
    expect(pageLines.some((line) => line.includes('"POST /e/:token/confirm 303"'))).toBe(true);
    expect(pageLines.some((line) => line.includes('"POST /e/:token/reject 400"'))).toBe(true);
    expect(log.lines.some((line) => line.includes('"GET /E/:token 404"'))).toBe(true);
    for (const token of tokens) {
      expect(log.lines.filter((line) => line.includes(token))).toEqual([]);
    }
  });
});
