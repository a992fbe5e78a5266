import { approvedMerchant, ConsoleClient, csrfFieldOf, setCookie } from '../support/console-client';
import { englishWords } from '../support/korean-text';
import { PaymentsApiHarness } from '../support/payments-api.harness';
import { SmtpInbox } from '../support/smtp-inbox';

/**
 * The console speaks Korean unless the browser asks for English, and a member may choose either on
 * "Your login": the choice holds whatever the browser asks, until the member goes back to the browser's.
 */
describe('console: sign-in pages and "Your login" in Korean and English', () => {
  let api: PaymentsApiHarness;
  let inbox: SmtpInbox;
  let merchant: { email: string; merchantId: string };
  let client: ConsoleClient;

  beforeAll(async () => {
    inbox = await SmtpInbox.start();
    api = await PaymentsApiHarness.start({ SMTP_URL: inbox.url });
    merchant = await approvedMerchant(api, { name: 'Korean Shop' });
    client = await ConsoleClient.login(api, merchant.email);
  });
  afterAll(async () => {
    await api?.stop();
    await inbox?.stop();
  });

  /** A page as a browser asking for `language` (none: no Accept-Language at all) sees it. */
  const page = (path: string, language?: string, cookie?: string) => {
    const get = api.http().get(path);
    if (language) get.set('Accept-Language', language);
    if (cookie) get.set('Cookie', cookie);
    return get;
  };
  const expectKorean = (text: string) => {
    expect(text).toContain('<html lang="ko">');
    expect(englishWords(text, ['Korean Shop', merchant.email])).toEqual([]);
  };

  it.each([
    ['/console/login', '로그인'],
    ['/console/login/forgot', '비밀번호 찾기'],
    ['/console/login?notice=joined', '팀에 합류했습니다'],
  ])('renders %s in Korean by default and in English for an English browser', async (path, korean) => {
    const ko = await page(path).expect(200);
    expectKorean(ko.text);
    expect(ko.text).toContain(korean);
    expect(ko.headers['content-language']).toBe('ko');
    const en = await page(path, 'en-US,en;q=0.9').expect(200);
    expect(en.text).toContain('<html lang="en">');
    expect(en.headers['content-language']).toBe('en');
  });

  it('answers a wrong password, an expired form and an unusable reset link in Korean', async () => {
    const login = await page('/console/login').expect(200);
    const cookie = setCookie(login, 'payhook_console_login')!.split(';')[0];
    const wrong = await api
      .http()
      .post('/console/login')
      .set('Cookie', cookie)
      .type('form')
      .send({ csrf: csrfFieldOf(login.text), email: merchant.email, password: 'not the password' })
      .expect(401);
    expectKorean(wrong.text);
    expect(wrong.text).toContain('이메일 또는 비밀번호가 틀렸습니다.');

    const expired = await api.http().post('/console/login').type('form').send({ csrf: 'stale' }).expect(403);
    expectKorean(expired.text);
    expect(expired.text).toContain('양식 만료');

    const unusable = await page(`/console/reset/${'A'.repeat(43)}`).expect(404);
    expectKorean(unusable.text);
    expect(unusable.text).toContain('쓸 수 없는 링크');
  });

  it('shows "Your login" in Korean, with the language choice defaulting to the browser', async () => {
    const security = await page('/console/security', undefined, client.cookie).expect(200);
    expectKorean(security.text);
    expect(security.text).toContain('<h1>내 계정</h1>');
    expect(security.text).toMatch(
      /<option value=""\s+selected>\s*브라우저 설정 따르기\(<span lang="ko">한국어<\/span>\)/,
    );
  });

  it("keeps the member's choice whatever the browser asks, until the member goes back to the browser's", async () => {
    const choose = (locale: string) =>
      api
        .http()
        .post('/console/security/language')
        .set('Cookie', client.cookie)
        .type('form')
        .send({ csrf: client.csrf, locale })
        .expect(303);

    await choose('en');
    const english = await page('/console/security?notice=language', 'ko-KR', client.cookie).expect(200);
    expect(english.text).toContain('<html lang="en">');
    expect(english.text).toContain('Language saved.');
    expect(english.text).toMatch(/<option value="en" lang="en"\s+selected>/);
    const [member] = await api.sql<{ locale: string | null }>(`SELECT locale FROM merchant_members WHERE email = $1`, [
      merchant.email,
    ]);
    expect(member.locale).toBe('en');

    await choose('ko');
    expectKorean((await page('/console/security', 'en-US', client.cookie).expect(200)).text);

    await choose('');
    expect((await page('/console/security', 'en-US', client.cookie).expect(200)).text).toContain('<html lang="en">');
    expectKorean((await page('/console/security', undefined, client.cookie).expect(200)).text);

    // Anything but a choice offered changes nothing: another language, or no choice in the form.
    await choose('en');
    for (const form of [{ locale: 'fr' }, {}]) {
      const refused = await api
        .http()
        .post('/console/security/language')
        .set('Cookie', client.cookie)
        .type('form')
        .send({ csrf: client.csrf, ...form })
        .expect(400);
      expect(refused.text).toContain('Choose one of the languages offered.');
    }
    const [after] = await api.sql<{ locale: string | null }>(`SELECT locale FROM merchant_members WHERE email = $1`, [
      merchant.email,
    ]);
    expect(after.locale).toBe('en');
    // A refused form's page speaks the member's language too, whatever the browser asks.
    const expired = await api
      .http()
      .post('/console/security/language')
      .set('Cookie', client.cookie)
      .set('Accept-Language', 'ko-KR')
      .type('form')
      .send({ locale: 'ko' })
      .expect(403);
    expect(expired.text).toContain('<html lang="en">');
    expect(expired.text).toContain('Form expired');
    await choose('');
  });

  it('refuses a language change without the form token, as every console form', async () => {
    await api
      .http()
      .post('/console/security/language')
      .set('Cookie', client.cookie)
      .type('form')
      .send({ locale: 'en' })
      .expect(403);
  });
});
