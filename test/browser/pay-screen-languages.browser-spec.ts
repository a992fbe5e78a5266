import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { connectChromium, expectClean } from '../support/browser';
import { PaymentsApiHarness, paymentBody, type TestMerchant } from '../support/payments-api.harness';
import { BUDGET_MS, timeFor } from '../support/time-budget';

const SHOP = 'https://shop.example';
const START_MS = timeFor({ database: 1, app: 1, browser: 1 });
/** UPDATE_SCREENSHOTS=1 writes the screen as docs/live-money.md shows it (docs/screenshots/). */
const SCREENSHOTS = process.env.UPDATE_SCREENSHOTS === '1' ? join(__dirname, '../../docs/screenshots') : null;

/**
 * What each language's screen says where the specs look. A payment made in the half hour before the
 * merchant's midnight is due the next day: its deadline then names the date too.
 */
const WORDS = {
  ko: {
    transfer: '무통장입금',
    check: '입금 확인',
    until: /^(\d+월 \d+일 )?\d\d:\d\d까지$/,
    other: 'English',
    complete: '완료',
  },
  en: {
    transfer: 'Pay by bank transfer',
    check: 'Check for my payment',
    until: /^until \d\d:\d\d( on \w+ \d+)?$/,
    other: '한국어',
    complete: 'Complete payment',
  },
} as const;

describe('the payment screen in Korean and in English, at 360 px', () => {
  let api: PaymentsApiHarness;
  let browser: Browser;
  let live: TestMerchant;
  let test: TestMerchant;

  beforeAll(async () => {
    [api, browser] = await Promise.all([PaymentsApiHarness.start(), connectChromium()]);
    [live, test] = await Promise.all([api.merchantWithKey('live', { live: true }), api.merchantWithKey('test')]);
  }, START_MS);
  afterAll(async () => {
    await browser.close();
    await api.stop();
  });

  async function create(merchant: TestMerchant, amount = 15_000) {
    const created = await api
      .as(merchant)
      .post('/v1/payments')
      .set('Idempotency-Key', randomUUID())
      .send(paymentBody({ amount, returnUrl: `${SHOP}/orders/5` }))
      .expect(201);
    return created.body.data as { id: string; orderId: string; payUrl: string };
  }

  function screenUrl(payUrl: string): string {
    const port = (api.app.getHttpServer().address() as AddressInfo).port;
    return `http://127.0.0.1:${port}${new URL(payUrl).pathname}`;
  }

  /** A phone whose browser asks for `locale` (Playwright sends it as Accept-Language). */
  async function phone(locale: string): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({ viewport: { width: 360, height: 740 }, deviceScaleFactor: 2, locale });
    return { context, page: await context.newPage() };
  }

  async function backToShop(page: Page): Promise<URL> {
    const request = await page.waitForRequest((candidate) => candidate.url().startsWith(`${SHOP}/`), {
      timeout: BUDGET_MS.browser,
    });
    return new URL(request.url());
  }

  it.each([
    ['ko', 'ko-KR'],
    ['en', 'en-US'],
  ] as const)('pays a live payment by transfer through the %s screen (browser %s), axe-clean', async (lang, locale) => {
    const words = WORDS[lang];
    const payment = await create(live);
    const { context, page } = await phone(locale);
    await page.goto(screenUrl(payment.payUrl));
    await expect(page.locator('html').getAttribute('lang')).resolves.toBe(lang);
    await expect(page.locator('.amount').innerText()).resolves.toBe('₩15,000');
    await expect(page.locator('.deadline').innerText()).resolves.toMatch(words.until);
    // Above the fold at 360 × 740: the amount, the instruction, the account and the code.
    for (const selector of ['.amount', '.instruction', '#account-number', '#deposit-code']) {
      const box = (await page.locator(selector).boundingBox())!;
      expect({ selector, bottom: box.y + box.height <= 740 }).toEqual({ selector, bottom: true });
    }
    // The transfer's details come before the check button.
    const heading = (await page.getByRole('heading', { name: words.transfer }).boundingBox())!;
    const check = page.getByRole('link', { name: words.check });
    expect((await check.boundingBox())!.y).toBeGreaterThan(heading.y);
    await expectClean(page, `live screen, ${lang}`, 360);
    if (SCREENSHOTS) {
      mkdirSync(SCREENSHOTS, { recursive: true });
      await page.screenshot({ path: join(SCREENSHOTS, `pay-screen-${lang}.png`), fullPage: true });
    }

    // One tap selects the whole code (user-select: all), ready to copy.
    const code = (await page.locator('#deposit-code').innerText()).trim();
    await page.locator('#deposit-code').click();
    await expect(page.evaluate<string>('String(getSelection())')).resolves.toBe(code);
    await page.locator('#account-number').click();
    await expect(page.evaluate<string>('String(getSelection())')).resolves.toBe(
      (await page.locator('#account-number').innerText()).trim(),
    );

    const back = backToShop(page);
    await api
      .admin()
      .post('/admin/v1/deposits')
      .send({
        bankTransactionId: randomUUID(),
        amount: 15_000,
        depositCode: code,
        depositorName: '홍길동',
        receivedAt: new Date().toISOString(),
      })
      .expect(201);
    await check.click();
    expect((await back).searchParams.get('status')).toBe('completed');
    await context.close();
  });

  it.each([
    ['ko', 'ko'],
    ['en', 'en-GB'],
  ] as const)('pays a test payment with its %s Complete button (browser %s), axe-clean', async (lang, locale) => {
    const payment = await create(test);
    const { context, page } = await phone(locale);
    await page.goto(screenUrl(payment.payUrl));
    await expect(page.locator('html').getAttribute('lang')).resolves.toBe(lang);
    await expect(page.getByRole('note').innerText()).resolves.toContain(lang === 'ko' ? '테스트' : 'TEST');
    await expectClean(page, `test screen, ${lang}`, 360);
    const [landed] = await Promise.all([
      backToShop(page),
      page.getByRole('button', { name: WORDS[lang].complete, exact: true }).click(),
    ]);
    expect(landed.searchParams.get('status')).toBe('completed');
    await context.close();
  });

  it('switches language with the link and keeps the choice for the visit, voucher page included', async () => {
    const payment = await create(live);
    const { context, page } = await phone('ko-KR');
    await page.goto(screenUrl(payment.payUrl));
    await expect(page.locator('html').getAttribute('lang')).resolves.toBe('ko');
    await Promise.all([
      page.waitForURL(screenUrl(payment.payUrl)),
      page.getByRole('link', { name: 'English' }).click(),
    ]);
    await expect(page.locator('html').getAttribute('lang')).resolves.toBe('en');
    await expect(page.getByRole('heading', { name: 'Pay by bank transfer' }).isVisible()).resolves.toBe(true);

    // The voucher page and a fresh visit of the screen in this browser stay English.
    await page.getByRole('link', { name: /gift voucher PINs/ }).click();
    await expect(page.locator('html').getAttribute('lang')).resolves.toBe('en');
    await expect(page.getByText('A PIN is 12 to 20 digits').isVisible()).resolves.toBe(true);
    await expectClean(page, 'voucher page, en', 360);
    await page.goto(screenUrl(payment.payUrl));
    await expect(page.locator('html').getAttribute('lang')).resolves.toBe('en');

    // And back to Korean from the voucher page.
    await page.goto(`${screenUrl(payment.payUrl)}/vouchers`);
    await page.getByRole('link', { name: '한국어' }).click();
    await expect(page.locator('html').getAttribute('lang')).resolves.toBe('ko');
    await expect(page.locator('dl.total dt').innerText()).resolves.toBe('남은 결제 금액');
    await expectClean(page, 'voucher page, ko', 360);
    // Another visit (a new browser session) starts from the browser's language again.
    await context.close();
    const again = await phone('ko-KR');
    await again.page.goto(screenUrl(payment.payUrl));
    await expect(again.page.locator('html').getAttribute('lang')).resolves.toBe('ko');
    await again.context.close();
  });
});
