import { randomUUID } from 'node:crypto';
import { CONSOLE_LANGUAGE, ConsoleClient, approvedMerchant } from '../support/console-client';
import { englishWords } from '../support/korean-text';
import { openVoucherPage } from '../support/pay-screen-client';
import { PaymentsApiHarness, paymentBody } from '../support/payments-api.harness';

/**
 * The payments and refunds pages of the console speak Korean to a browser that asks for no language
 * (the member has not chosen one), and English to one that asks for English.
 */
describe('console: payments and refunds in Korean and English', () => {
  let api: PaymentsApiHarness;
  let shop: Awaited<ReturnType<typeof approvedMerchant>>;
  let client: ConsoleClient;
  /** Every page rendered in Korean, to render again in English. */
  const shown: { user: ConsoleClient; path: string }[] = [];
  /** What the fixture puts on the pages as it is, in any language: the zone, event types, a depositor. */
  const data = ['Asia/Seoul', 'payment.completed', 'payment.failed', 'refund.succeeded', 'TEST DEPOSITOR'];
  /** Ids are data too (a refund's in the state history, an event's in its section's label). */
  const idsOn = (page: string) => page.match(/\b(?:pay|evt|rfd|we|att|rev|dep|vch)_[A-Za-z0-9]+/g) ?? [];

  beforeAll(async () => {
    // The voucher page counts wrong PINs per client address.
    api = await PaymentsApiHarness.start({ TRUST_PROXY: 'loopback' });
    shop = await approvedMerchant(api, { name: '서울 찻집' });
    client = await ConsoleClient.login(api, shop.email);
  });
  afterAll(() => api.stop());

  /** A browser that sends no Accept-Language, signed in as `user`. */
  const korean = (user: ConsoleClient) => ({
    get: (path: string) => api.http().get(path).set('Cookie', user.cookie),
    post: (path: string, form: Record<string, string>) =>
      api
        .http()
        .post(path)
        .set('Cookie', user.cookie)
        .type('form')
        .send({ csrf: user.csrf, ...form }),
  });

  /** The labels a reader hears or sees without the text around them. */
  const labelsOf = (page: string) =>
    [...page.matchAll(/\s(?:aria-label|data-label)="([^"]*)"/g)].map((match) => match[1]).join(' ');

  function expectKorean(page: string) {
    expect(page).toContain('<html lang="ko">');
    const known = [...data, ...idsOn(page)];
    expect(englishWords(page, known)).toEqual([]);
    expect(englishWords(labelsOf(page), known)).toEqual([]);
  }

  async function koreanPage(path: string, user = client, status = 200) {
    const page = (await korean(user).get(path).expect(status)).text;
    expectKorean(page);
    shown.push({ user, path });
    return page;
  }

  let orders = 0;
  async function createPayment(merchant: { key: string }, amount = 15_000, extra: Record<string, unknown> = {}) {
    orders += 1;
    const created = await api
      .as(merchant)
      .post('/v1/payments')
      .set('Idempotency-Key', randomUUID())
      // Digits only, and a Korean customer: nothing on the page is Latin but what the page says.
      .send(paymentBody({ amount, orderId: `${Date.now()}-${orders}`, customerId: '김민수', ...extra }))
      .expect(201);
    return created.body.data as { id: string; orderId: string; payUrl: string };
  }

  const refundIdsOf = async (paymentId: string) =>
    (await api.sql<{ id: string }>(`SELECT id FROM refunds WHERE payment_id = $1`, [paymentId])).map((row) => row.id);
  /** The hidden fields of the confirmation form, as a browser sends them back. */
  const confirmationOf = (page: string) => {
    const fields: Record<string, string> = {};
    for (const match of page.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)) {
      if (match[1] !== 'csrf') fields[match[1]] = match[2];
    }
    return fields;
  };

  let paid: { id: string; orderId: string; payUrl: string };

  it('shows a pending payment, then its voucher, deposits, review case and settlement', async () => {
    paid = await createPayment(shop, 15_000);
    const path = `/console/payments/${paid.id}?mode=test`;
    const pending = await koreanPage(path);
    for (const words of [
      '결제 ID',
      '정산 내역이 없습니다. 결제가 완료되지 않았습니다.',
      '입금 내역이 없습니다.',
      '상품권 내역이 없습니다.',
      '심사 건이 없습니다.',
      '완료된 결제만 환불할 수 있습니다.',
      '아직 이벤트가 없습니다.',
      '<span class="badge pending">대기</span>',
      '생성(대기) · <time',
    ]) {
      expect(pending).toContain(words);
    }
    // A refund of a payment that is not completed is refused in Korean too.
    const refused = await korean(client)
      .post(`/console/payments/${paid.id}/refunds/review`, { mode: 'test', amount: '1000' })
      .expect(409);
    expectKorean(refused.text);
    expect(refused.text).toContain('<p class="error" role="alert">완료된 결제만 환불할 수 있습니다.</p>');

    const voucher = await api.as(shop).post('/v1/test-helpers/vouchers').send({ faceValue: 5_000 }).expect(201);
    await (
      await openVoucherPage(api, paid.payUrl)
    )
      .submit(voucher.body.data.pin as string, '198.51.100.81')
      .expect(200);
    const short = await api
      .as(shop)
      .post(`/v1/test-helpers/payments/${paid.id}/deposit`)
      .send({ amount: 1_000 })
      .expect(201);
    const open = await koreanPage(path);
    for (const words of [
      '문화상품권',
      '<span class="badge held">보류</span>',
      '<span class="badge review">심사 중</span>',
      '심사 건 보기',
      '입금액 부족',
      '<span class="badge open">열림</span>',
      'payhook 운영팀의 처리를 기다리고 있습니다.',
    ]) {
      expect(open).toContain(words);
    }

    await api
      .admin()
      .post(`/admin/v1/reviews/${short.body.data.reviewCaseId as string}/resolve`)
      .send({ action: 'refund', resolvedBy: 'ops@payhook.test' })
      .expect(200);
    await api.as(shop).post(`/v1/test-helpers/payments/${paid.id}/deposit`).expect(201);
    const completed = await koreanPage(path);
    for (const words of [
      '<h2 id="money">입금·정산</h2>',
      '<dt>정산 금액</dt>',
      '₩375 <span class="muted">(2.50%)</span>',
      '매출일과 지급일은 Asia/Seoul 기준 날짜입니다.',
      '<span class="badge matched">매칭됨</span>',
      '<span class="badge redeemed">사용됨</span>',
      '<span class="badge resolved">처리됨</span>',
      'ops@payhook.test 님이 ₩1,000 환불 기록',
      // No endpoint was set when it completed: its event says why it was not sent.
      '<dt>미전송 사유</dt><dd>이 모드에 설정된 웹훅 엔드포인트가 없습니다.',
      '₩10,000 환불 가능',
      '환불 금액(원)',
      '환불 내용 확인',
    ]) {
      expect(completed).toContain(words);
    }
  });

  it("shows a payment's VAT split and its metadata as data, in Korean and in English", async () => {
    /** A term and its amount in the payment's details. */
    const row = (page: string, term: string, amount: string) =>
      expect(page).toMatch(new RegExp(`<dt>${term}</dt>\\s*<dd>${amount}</dd>`));
    orders += 1;
    const created = await api
      .as(shop)
      .post('/v1/payments')
      .set('Idempotency-Key', randomUUID())
      .send(
        paymentBody({
          amount: 10_000,
          taxFreeAmount: 3_000,
          orderId: `${Date.now()}-${orders}`,
          customerId: '김민수',
          metadata: { cartId: 'cart-5521', channel: '모바일 앱', giftNote: '', 'a.b_c-9': '<b>굵게</b>' },
        }),
      )
      .expect(201);
    const path = `/console/payments/${created.body.data.id as string}?mode=test`;
    const page = await koreanPage(path);
    row(page, '면세 금액', '₩3,000');
    row(page, '부가세', '₩636');
    row(page, '공급가액', '₩6,364');
    for (const words of [
      '<h2 id="metadata">메타데이터</h2>',
      '<dt><code>cartId</code></dt>',
      '<code>cart-5521</code>',
      '<code>모바일 앱</code>',
      '<span class="muted">(빈 값)</span>',
      // A value is data, escaped like any other.
      '<code>&lt;b&gt;굵게&lt;/b&gt;</code>',
    ]) {
      expect(page).toContain(words);
    }
    expect(page).not.toContain('<b>굵게</b>');
    // Keys in an order of their own, whatever order the database keeps.
    const keys = [...page.matchAll(/<dt><code>([^<]+)<\/code><\/dt>/g)].map((match) => match[1]);
    expect(keys).toEqual(['a.b_c-9', 'cartId', 'channel', 'giftNote']);

    const english = (await api.http().get(path).set(CONSOLE_LANGUAGE).set('Cookie', client.cookie).expect(200)).text;
    expect(english).toContain('<html lang="en">');
    row(english, 'Tax-free amount', '₩3,000');
    row(english, 'VAT', '₩636');
    row(english, 'Supplied value', '₩6,364');
    for (const words of [
      '<h2 id="metadata">Metadata</h2>',
      '<code>모바일 앱</code>',
      '<span class="muted">(empty)</span>',
    ]) {
      expect(english).toContain(words);
    }

    // A payment without either: no tax-free part, and says it has no metadata.
    const plain = await koreanPage(`/console/payments/${paid.id}?mode=test`);
    row(plain, '면세 금액', '₩0');
    row(plain, '부가세', '₩1,364');
    row(plain, '공급가액', '₩13,636');
    expect(plain).toContain('메타데이터가 없습니다.');
  });

  it('refuses refund amounts and reasons next to their fields, in Korean', async () => {
    const review = `/console/payments/${paid.id}/refunds/review`;
    const cases: [Record<string, string>, string[]][] = [
      [{ amount: '' }, ['환불 금액을 입력하세요.']],
      [{ amount: '12.5', reason: '가'.repeat(201) }, ['15000처럼 원 단위 숫자로', '최대 200자까지']],
      [{ amount: '0' }, ['₩1 이상의 금액을 입력하세요.']],
      [{ amount: '10001' }, ['환불 가능한 금액을 넘었습니다. 최대 ₩10,000까지 환불할 수 있습니다.']],
    ];
    for (const [form, messages] of cases) {
      const answer = await korean(client)
        .post(review, { mode: 'test', ...form })
        .expect(400);
      expectKorean(answer.text);
      expect(answer.text).toContain('환불되지 않았습니다. 아래 표시된 항목을 수정하세요.');
      for (const message of messages) expect(answer.text).toContain(message);
    }
    // The same refusal for an English browser.
    const english = await client.post(review, { mode: 'test', amount: '' }).expect(400);
    expect(english.text).toContain('<html lang="en">');
    expect(english.text).toContain('Enter the amount to refund.');
  });

  it('confirms a refund, goes back to the form, makes it and shows it in the history', async () => {
    const review = await korean(client)
      .post(`/console/payments/${paid.id}/refunds/review`, { mode: 'test', amount: '3,000', reason: '상자 파손' })
      .expect(200);
    expectKorean(review.text);
    expect(review.text).toContain(
      `결제 <code>${paid.id}</code>(주문번호 ${paid.orderId})에서 ₩3,000을 환불하시겠습니까?`,
    );
    for (const words of ['₩15,000 (환불 가능 금액 ₩10,000)', '<dd>₩7,000</dd>', '<dd>테스트</dd>', '환불하기']) {
      expect(review.text).toContain(words);
    }
    expect(review.text).toContain('테스트 모드에서는 환불이 바로 완료되며');
    const confirmation = confirmationOf(review.text);
    const english = await client.post(`/console/payments/${paid.id}/refunds/review`, {
      mode: 'test',
      amount: '3,000',
    });
    expect(english.text).toContain('<html lang="en">');
    expect(english.text).toContain('>Confirm refund</button>');

    const back = await korean(client).post(`/console/payments/${paid.id}/refunds/edit`, confirmation).expect(200);
    expectKorean(back.text);
    expect(back.text).toMatch(/id="refund-reason"\s+name="reason"\s+value="상자 파손"/);

    const made = await korean(client).post(`/console/payments/${paid.id}/refunds`, confirmation).expect(303);
    const [refundId] = await refundIdsOf(paid.id);
    const after = await koreanPage(made.headers.location.split('#')[0]);
    for (const words of [
      '환불을 접수했습니다.',
      '<h3>₩3,000 <span class="badge succeeded">성공</span></h3>',
      '<dt>사유</dt>',
      `₩3,000 환불 요청(<code>${refundId}</code>) · <time`,
      '₩3,000 환불 완료 · <time',
      '₩7,000 환불 가능',
      '(완료되었거나 대기 중인 환불 금액은 제외됩니다)',
      '<h4>환불 <a',
      '환불 반영 후 정산 금액: ',
    ]) {
      expect(after).toContain(words);
    }

    // The same confirmation for another amount is another refund: refused.
    const reused = await korean(client)
      .post(`/console/payments/${paid.id}/refunds`, { ...confirmation, amount: '2000' })
      .expect(422);
    expectKorean(reused.text);
    expect(reused.text).toContain('이 확인 화면은 이미 다른 환불에 사용되었습니다.');
  });

  it('shows delivery attempts and redelivers an event, in Korean', async () => {
    const events = await api.as(shop).get(`/v1/events?paymentId=${paid.id}&type=payment.completed`).expect(200);
    const eventId = events.body.data[0].id as string;
    await api.as(shop).put('/v1/webhook-endpoint').send({ url: 'https://shop.example/hooks' }).expect(200);
    await api.sql(
      `INSERT INTO webhook_attempts (id, event_id, number, url, started_at, duration_ms, response_status, error)
       VALUES ($1, $2, 1000, 'https://shop.example/hooks', now(), 42, NULL, 'connect ECONNREFUSED 203.0.113.9:443')`,
      [`att_${randomUUID().replace(/-/g, '')}`, eventId],
    );
    const redelivered = await korean(client)
      .post(`/console/payments/${paid.id}/events/${eventId}/redeliver`, { mode: 'test' })
      .expect(303);
    // The dispatcher (not running here) found the endpoint disabled: its delivery says so.
    await api.sql(
      `INSERT INTO webhook_deliveries (event_id, endpoint_id, merchant_id, livemode, status, undelivered_reason, created_at)
       SELECT $1, id, merchant_id, livemode, 'failed', 'endpoint_disabled', now()
         FROM webhook_endpoints WHERE merchant_id = $2 AND NOT livemode`,
      [eventId, shop.merchantId],
    );
    const page = await koreanPage(redelivered.headers.location.split('#')[0]);
    for (const words of [
      '재전송을 요청했습니다.',
      '소요 시간</th>',
      '42밀리초',
      '<span class="muted" lang="en">connect ECONNREFUSED 203.0.113.9:443</span>',
      '<span class="badge failed">실패</span>',
      '엔드포인트가 꺼져 있습니다.',
      '>재전송</button>',
      '<code>payment.completed</code> 전송 시도',
    ]) {
      expect(page).toContain(words);
    }
    expect(page).toMatch(/<dt>전송 대상 <code>we_\w+<\/code><\/dt>/);
  });

  it('shows a failed payment and a payment with nothing left to refund', async () => {
    const failed = await createPayment(shop, 2_000);
    await api.as(shop).post(`/v1/test-helpers/payments/${failed.id}/fail`).expect(200);
    const failedPage = await koreanPage(`/console/payments/${failed.id}?mode=test`);
    expect(failedPage).toContain('실패 · <time');
    expect(failedPage).toContain('<span class="badge skipped">건너뜀</span>');

    const whole = await createPayment(shop, 2_000);
    await api.as(shop).post(`/v1/test-helpers/payments/${whole.id}/complete`).expect(200);
    const review = await korean(client)
      .post(`/console/payments/${whole.id}/refunds/review`, { mode: 'test', amount: '2000' })
      .expect(200);
    await korean(client).post(`/console/payments/${whole.id}/refunds`, confirmationOf(review.text)).expect(303);
    const nothing = await korean(client)
      .post(`/console/payments/${whole.id}/refunds/review`, { mode: 'test', amount: '1' })
      .expect(409);
    expectKorean(nothing.text);
    expect(nothing.text).toContain('<p class="error" role="alert">이 결제에는 더 환불할 금액이 없습니다.</p>');
  });

  it('asks for the refund account of a live refund, in Korean', async () => {
    const live = await approvedMerchant(api, { name: '부산 빵집' });
    await api.sql(`UPDATE merchants SET status = 'live' WHERE id = $1`, [live.merchantId]);
    const liveKey = await api.issueKey(live.merchantId, 'live');
    const liveClient = await ConsoleClient.login(api, live.email);
    const payment = await createPayment(liveKey, 30_000);
    await api.admin().post(`/admin/v1/payments/${payment.id}/confirm-receipt`).expect(200);

    const form = await koreanPage(`/console/payments/${payment.id}?mode=live`, liveClient);
    expect(form).toContain('<legend>환불 계좌(라이브 환불 시 필수)</legend>');
    expect(form).toContain('<dd>라이브</dd>');

    const review = `/console/payments/${payment.id}/refunds/review`;
    const missing = await korean(liveClient).post(review, { mode: 'live', amount: '30000' }).expect(400);
    expectKorean(missing.text);
    for (const words of ['은행을 입력하세요.', '계좌번호를 입력하세요.', '예금주를 입력하세요.']) {
      expect(missing.text).toContain(words);
    }
    const tooLong = await korean(liveClient)
      .post(review, { mode: 'live', amount: '30000', bank: '은'.repeat(65), accountNumber: '1', holderName: '이지원' })
      .expect(400);
    expectKorean(tooLong.text);
    expect(tooLong.text).toContain('은행은 최대 64자까지 입력할 수 있습니다.');

    const account = { bank: '국민은행', accountNumber: '123-456-7890', holderName: '이지원' };
    const confirm = await korean(liveClient)
      .post(review, { mode: 'live', amount: '30,000', ...account })
      .expect(200);
    expectKorean(confirm.text);
    for (const words of [
      '<dt>환불 계좌</dt>',
      '국민은행 …7890 (예금주 이지원)',
      'payhook이 이 계좌로 ₩30,000을 보낼 때까지',
    ]) {
      expect(confirm.text).toContain(words);
    }
  });

  it('lists payments with their refunds, pages, and refuses filters in Korean', async () => {
    // More than a page: the pager's links show.
    for (let i = 0; i < 23; i++) await createPayment(shop, 1_000 + i);
    const first = await koreanPage('/console/payments');
    for (const words of [
      '<h1>결제</h1>',
      '시간은 Asia/Seoul 기준입니다.',
      '<option value="" selected>전체</option>',
      '<option value="completed" >완료</option>',
      '<th scope="col">주문번호</th>',
      '<span class="badge">전액 환불</span>',
      '다음 페이지',
    ]) {
      expect(first).toContain(words);
    }
    // The first payment, refunded in part, is the oldest: on the second page.
    const next = /href="([^"]+)" rel="next"/.exec(first)![1].replace(/&amp;/g, '&');
    const second = await koreanPage(next);
    expect(second).toContain('첫 페이지');
    expect(second).toContain('<span class="badge">₩3,000 환불</span>');
    expect(await koreanPage('/console/payments?mode=live')).toContain('조건에 맞는 라이브 결제가 없습니다.');

    const forged = Buffer.from(JSON.stringify(['2026-11-21T00:00:00.000Z', `pay_${'A'.repeat(24)}`])).toString(
      'base64url',
    );
    const refusals: [string, string][] = [
      ['status=paid', '목록에 있는 상태를 선택하세요.'],
      ['orderId=a%20b', '주문번호는 영문 대소문자, 숫자와 _ . : - 로 된 1~64자여야 합니다.'],
      ['customerId=a%00b', '고객 ID는 제어 문자 없이 1~128자여야 합니다.'],
      ['createdFrom=2026-02-30', '시작일은 2026-11-21과 같은 날짜여야 합니다.'],
      ['createdTo=21/11/2026', '종료일은 2026-11-21과 같은 날짜여야 합니다.'],
      ['createdFrom=2026-03-09&createdTo=2026-03-08', '시작일이 종료일보다 늦을 수 없습니다.'],
      ['cursor=a%20b', '더 이상 유효하지 않은 페이지 링크입니다.'],
      [`cursor=${forged}`, '더 이상 유효하지 않은 페이지 링크입니다.'],
    ];
    for (const [query, message] of refusals) {
      expect(await koreanPage(`/console/payments?${query}`, client, 400)).toContain(message);
    }
  });

  it("takes a refund's optional tax-free part, refuses it next to its field and shows each refund's VAT split, in Korean", async () => {
    // ₩10,000 with ₩3,000 tax-free.
    const payment = await createPayment(shop, 10_000, { taxFreeAmount: 3_000 });
    await api.as(shop).post(`/v1/test-helpers/payments/${payment.id}/complete`).expect(200);
    const path = `/console/payments/${payment.id}?mode=test`;
    const form = await koreanPage(path);
    expect(form).toContain('<label for="refund-taxFreeAmount">면세 금액(원, 선택)</label>');
    expect(form).toContain('아직 환불되지 않은 면세 금액 ₩3,000까지 입력할 수 있습니다.');

    const review = `/console/payments/${payment.id}/refunds/review`;
    const cases: [Record<string, string>, string][] = [
      [{ amount: '1000', taxFreeAmount: '1.5' }, '면세 금액은 3000처럼 원 단위 숫자로 입력하거나 비워 두세요.'],
      [{ amount: '1000', taxFreeAmount: '1001' }, '면세 금액은 환불 금액보다 클 수 없습니다.'],
      [
        { amount: '5000', taxFreeAmount: '3,001' },
        '환불 가능한 면세 금액을 넘었습니다. 최대 ₩3,000까지 입력할 수 있습니다.',
      ],
      [
        { amount: '8000', taxFreeAmount: '999' },
        '과세 금액은 최대 ₩7,000까지 환불할 수 있습니다. 면세 금액을 ₩1,000 이상으로 입력하세요.',
      ],
    ];
    for (const [fields, message] of cases) {
      const answer = await korean(client)
        .post(review, { mode: 'test', ...fields })
        .expect(400);
      expectKorean(answer.text);
      // Tied to its field: shown above it and named by its aria-describedby.
      expect(answer.text).toContain(`<p class="field-error" id="refund-taxFreeAmount-error">${message}</p>`);
      expect(answer.text).toMatch(
        /aria-describedby="refund-taxFreeAmount-hint refund-taxFreeAmount-error"\s+aria-invalid="true"/,
      );
    }
    const english = await client.post(review, { mode: 'test', amount: '1000', taxFreeAmount: '1001' }).expect(400);
    expect(english.text).toContain('The tax-free part cannot be more than the amount to refund.');

    // An explicit part: ₩4,000 of which ₩2,000 tax-free.
    const explicit = await korean(client)
      .post(review, { mode: 'test', amount: '4000', taxFreeAmount: '2,000' })
      .expect(200);
    expectKorean(explicit.text);
    expect(explicit.text).toMatch(/<dt>면세 금액<\/dt>\s*<dd>₩2,000<\/dd>/);
    await korean(client).post(`/console/payments/${payment.id}/refunds`, confirmationOf(explicit.text)).expect(303);

    // The rest by default: its share of the ₩1,000 tax-free left.
    const share = await korean(client).post(review, { mode: 'test', amount: '6000' }).expect(200);
    expectKorean(share.text);
    expect(share.text).toContain('₩1,000 (남은 면세 금액 중 환불 금액의 비율만큼)');
    const made = await korean(client)
      .post(`/console/payments/${payment.id}/refunds`, confirmationOf(share.text))
      .expect(303);

    // Each refund's card: its tax-free part, and its VAT and supplied value now that it succeeded.
    const after = await koreanPage(made.headers.location.split('#')[0]);
    const split = (taxFree: string, vat: string, supplied: string) =>
      new RegExp(
        `<dt>면세 금액</dt>\\s*<dd>${taxFree}</dd>\\s*<dt>부가세</dt>\\s*<dd>${vat}</dd>\\s*<dt>공급가액</dt>\\s*<dd>${supplied}</dd>`,
      );
    expect(after).toMatch(split('₩2,000', '₩181', '₩1,819'));
    expect(after).toMatch(split('₩1,000', '₩455', '₩4,545'));
  });

  it('renders every one of these pages in English for an English browser', async () => {
    expect(shown.length).toBeGreaterThan(10);
    for (const { user, path } of shown) {
      const answer = await api.http().get(path).set(CONSOLE_LANGUAGE).set('Cookie', user.cookie);
      expect({ path, lang: /<html lang="(\w+)">/.exec(answer.text)?.[1] }).toEqual({ path, lang: 'en' });
    }
  });
});
