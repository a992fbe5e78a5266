import { addBusinessDays } from '../../apps/payments-api/src/core/ledger/business-days';
import { ConsoleClient, approvedMerchant } from '../support/console-client';
import { englishWords } from '../support/korean-text';
import { PaymentsApiHarness, paymentBody } from '../support/payments-api.harness';
import { refundsClient } from '../support/refunds-client';

/** The sales date every record of these tests is moved to. */
const DAY = '2026-03-09';
/** One more record than a console page holds (CONSOLE_PAGE_SIZE): the pager and "all pages" totals show. */
const RECORDS = 26;

describe('merchant console in Korean: settlements and settings', () => {
  let api: PaymentsApiHarness;
  let shop: Awaited<ReturnType<typeof approvedMerchant>>;
  let client: ConsoleClient;
  /** What the pages show that is data in any language: order ids, and IANA zone names (the merchant's, the examples). */
  const data: string[] = ['Asia/Seoul', 'America/New_York'];

  /** A page as a browser without Accept-Language asks for it: the member chose no language, so Korean. */
  const korean = (path: string) => api.http().get(path).set('Cookie', client.cookie);
  const english = (path: string) => client.get(path);

  beforeAll(async () => {
    api = await PaymentsApiHarness.start();
    shop = await approvedMerchant(api, { name: '서울 정산 상점' });
    client = await ConsoleClient.login(api, shop.email);
    const merchantApi = api.as(shop);
    const paymentIds: string[] = [];
    for (let n = 0; n < RECORDS - 1; n++) {
      const created = await merchantApi
        .post('/v1/payments')
        .set('Idempotency-Key', `settlements-korean-${n}-${Math.random()}`)
        .send(paymentBody({ amount: 15_000 + n }))
        .expect(201);
      const payment = created.body.data as { id: string; orderId: string };
      await merchantApi.post(`/v1/test-helpers/payments/${payment.id}/complete`).expect(200);
      paymentIds.push(payment.id);
      data.push(payment.orderId);
    }
    // A refund is a record of its own: the 26th, with negative amounts, the newest so the first page shows it.
    await refundsClient(api, shop).create(paymentIds[0], { amount: 5_000 }).expect(201);
    await api.sql(
      `UPDATE settlements SET sales_date = $2, payout_date = $3,
         completed_at = CASE type WHEN 'refund' THEN $5::timestamptz ELSE $4::timestamptz END
       WHERE merchant_id = $1`,
      [shop.merchantId, DAY, addBusinessDays(DAY, 2).date, `${DAY}T06:30:00Z`, `${DAY}T07:00:00Z`],
    );
  });
  afterAll(() => api.stop());

  /** Korean from `<html lang>` to the last word, but for data and the abbreviations Korean keeps. */
  function expectKorean(page: { text: string }, words: string[]) {
    expect(page.text).toContain('<html lang="ko">');
    for (const word of words) expect(page.text).toContain(word);
    expect(englishWords(page.text, data)).toEqual([]);
  }

  it('shows the list, its totals, its pager and its empty states in Korean', async () => {
    const all = await korean('/console/settlements').expect(200);
    expectKorean(all, ['<h1>정산</h1>', '매출일', '지급일', '정산 금액', '수수료', '부가세', '다음 페이지']);
    expect(all.text).toContain('매출일을 하나 선택하면 그날의 합계를 보고 CSV를 다운로드할 수 있습니다.');
    expect(all.text).toContain('<td data-label="구분">환불</td>');
    expect(all.text).toContain('data-label="환불 일시"><time');
    expect(all.text).toContain('data-label="결제 일시"><time');
    expect(all.text).toContain('2026-03-09 15:30:00 KST');

    const day = await korean(`/console/settlements?date=${DAY}`).expect(200);
    expectKorean(day, [`${DAY} 합계 (${RECORDS}건, 전체 페이지)`, 'CSV 다운로드']);
    const next = /href="([^"]+)" rel="next"/.exec(day.text)![1].replace(/&amp;/g, '&');
    const second = await korean(next).expect(200);
    expectKorean(second, [`${DAY} 합계 (${RECORDS}건, 전체 페이지)`, '첫 페이지']);

    const none = await korean('/console/settlements?date=2026-03-11').expect(200);
    expectKorean(none, ['2026-03-11에 테스트 정산 내역이 없습니다.']);
    const live = await korean('/console/settlements?mode=live').expect(200);
    expectKorean(live, ['조건에 맞는 라이브 정산 내역이 없습니다.']);

    for (const path of ['/console/settlements', `/console/settlements?date=${DAY}`, next]) {
      const page = await english(path).expect(200);
      expect(page.text).toContain('<html lang="en">');
      expect(page.text).toContain('<h1>Settlements</h1>');
    }
  });

  it('refuses bad filters in Korean', async () => {
    const refused: [string, string][] = [
      ['/console/settlements?date=2026-02-30', '매출일은 2026-11-21 형식의 날짜로 입력해 주세요.'],
      ['/console/settlements?from=2026-13-01', '시작일은 2026-11-21 형식의 날짜로 입력해 주세요.'],
      ['/console/settlements?to=yesterday', '종료일은 2026-11-21 형식의 날짜로 입력해 주세요.'],
      ['/console/settlements?from=2026-03-10&to=2026-03-09', '시작일은 종료일보다 늦을 수 없습니다.'],
      [`/console/settlements?date=${DAY}&from=2026-03-01`, '매출일 또는 기간 중 하나만 선택해 주세요.'],
      ['/console/settlements?cursor=not*a*cursor', '더 이상 유효하지 않은 페이지 링크입니다.'],
      ['/console/settlements/export', 'CSV를 다운로드하려면 매출일을 선택해 주세요.'],
      ['/console/settlements/export?date=2026-02-30', '매출일은 2026-11-21 형식의 날짜로 입력해 주세요.'],
    ];
    for (const [path, message] of refused) {
      const page = await korean(path).expect(400);
      expectKorean(page, ['<h1>정산</h1>', `<p class="error" role="alert">${message}`]);
      const inEnglish = await english(path).expect(400);
      expect(inEnglish.text).toContain('<html lang="en">');
      expect(inEnglish.text).toContain('<p class="error" role="alert">');
    }
  });

  it('downloads the same CSV in either language: its columns are a contract', async () => {
    const path = `/console/settlements/export?mode=test&date=${DAY}`;
    const [inKorean, inEnglish, fromApi] = await Promise.all([
      korean(path).expect(200),
      english(path).expect(200),
      api.as(shop).get(`/v1/settlements/export?date=${DAY}`).expect(200),
    ]);
    expect(inKorean.text.split('\r\n')[0]).toBe(
      'payment_id,order_id,sales_date,payout_date,completed_at,currency,gross_amount,fee_bps,fee_amount,vat_amount,net_amount,type,refund_id,payout_status',
    );
    expect(inKorean.text.split('\r\n')).toHaveLength(RECORDS + 2);
    expect(inKorean.text).toBe(fromApi.text);
    expect(inEnglish.text).toBe(fromApi.text);
  });

  it('shows the time zone setting, its notice and its error in Korean', async () => {
    const settings = await korean('/console/settings').expect(200);
    expectKorean(settings, ['<h1>설정</h1>', '<h2>시간대</h2>', 'IANA 시간대', '시간대 저장']);
    expect(settings.text).toMatch(
      /지금 Asia\/Seoul 시각은 <strong>\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} KST<\/strong>입니다/,
    );

    const saved = await korean('/console/settings?notice=saved').expect(200);
    expectKorean(saved, ['<p class="notice" role="status">시간대를 저장했습니다.']);

    const form = { csrf: client.csrf, timeZone: 'Mars/Olympus' };
    const refused = await api
      .http()
      .post('/console/settings')
      .set('Cookie', client.cookie)
      .type('form')
      .send(form)
      .expect(400);
    expectKorean(refused, ['<p class="error" role="alert">Asia/Seoul, America/New_York과 같은 IANA 시간대 이름을']);
    // The refused zone is echoed back into the field, not into the text.
    expect(refused.text).toContain('value="Mars/Olympus"');

    const inEnglish = await english('/console/settings?notice=saved').expect(200);
    expect(inEnglish.text).toContain('<html lang="en">');
    expect(inEnglish.text).toContain('Time zone saved');
    const refusedInEnglish = await client.post('/console/settings', { timeZone: 'Mars/Olympus' }).expect(400);
    expect(refusedInEnglish.text).toContain('<html lang="en">');
    expect(refusedInEnglish.text).toContain('Enter an IANA time zone');
  });

  it('tells a viewer in Korean who can change the time zone', async () => {
    // Roles count at once (the session reads the member on every page): the owner is a viewer now.
    await api.sql(`UPDATE merchant_members SET role = 'viewer' WHERE merchant_id = $1`, [shop.merchantId]);
    const settings = await korean('/console/settings').expect(200);
    expectKorean(settings, ['시간대는 소유자만 변경할 수 있습니다.']);
    expect(settings.text).not.toContain('name="timeZone"');
    const inEnglish = await english('/console/settings').expect(200);
    expect(inEnglish.text).toContain('<html lang="en">');
    expect(inEnglish.text).toContain('An owner can change the time zone.');
  });
});
