import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { connectChromium, expectClean } from '../support/browser';
import { CONSOLE_PASSWORD, approvedMerchant } from '../support/console-client';
import { englishWords } from '../support/korean-text';
import { PaymentsApiHarness, paymentBody } from '../support/payments-api.harness';
import { timeFor } from '../support/time-budget';

/**
 * The console as a member of a Korean shop sees it: Korean in a Korean browser, every section
 * axe-clean at a phone's 360 px and a desktop's 1280 px; and the same pages in English once the
 * member chooses English on "Your login", whatever the browser asks for.
 */
describe('the console in Korean and in English (axe-core, WCAG 2.1 AA)', () => {
  let api: PaymentsApiHarness;
  let browser: Browser;
  let merchant: Awaited<ReturnType<typeof approvedMerchant>>;
  let paymentId: string;

  beforeAll(
    async () => {
      [api, browser] = await Promise.all([PaymentsApiHarness.start(), connectChromium()]);
      merchant = await approvedMerchant(api, { name: 'Hanok Tea House', timeZone: 'Asia/Seoul' });
      const created = await api
        .as(merchant)
        .post('/v1/payments')
        .set('Idempotency-Key', randomUUID())
        // The longest key and value metadata takes, unbroken: they must wrap at 360 px too.
        .send(
          paymentBody({
            amount: 32_000,
            orderId: 'order-77',
            taxFreeAmount: 12_000,
            metadata: { ['k'.repeat(40)]: 'v'.repeat(500), channel: '모바일 앱' },
            // Its issue receipt at completion and the refund's cancel receipt: the page lists both.
            cashReceipt: { type: 'income_deduction', identityNumber: '010-1234-5678' },
          }),
        )
        .expect(201);
      paymentId = created.body.data.id as string;
      await api.as(merchant).post(`/v1/test-helpers/payments/${paymentId}/complete`).expect(200);
      await api
        .as(merchant)
        .post(`/v1/payments/${paymentId}/refunds`)
        .set('Idempotency-Key', randomUUID())
        .send({ amount: 2_000, reason: '포장 파손' })
        .expect(201);
    },
    timeFor({ app: 1, browser: 1 }),
  );
  afterAll(async () => {
    await browser?.close();
    await api?.stop();
  });

  const url = (path: string) => `http://127.0.0.1:${(api.app.getHttpServer().address() as AddressInfo).port}${path}`;

  /** Every section of the console, and one payment's page. */
  const pages = () => [
    '/console/payments',
    `/console/payments/${paymentId}`,
    '/console/settlements',
    '/console/developers',
    '/console/team',
    '/console/audit',
    '/console/settings',
    '/console/security',
  ];

  async function logIn(page: Page, labels: { email: string; password: string; submit: string }): Promise<void> {
    await page.goto(url('/console/login'));
    await page.getByLabel(labels.email, { exact: true }).fill(merchant.email);
    await page.getByLabel(labels.password, { exact: true }).fill(CONSOLE_PASSWORD);
    await Promise.all([
      page.waitForURL('**/console/payments'),
      page.getByRole('button', { name: labels.submit }).click(),
    ]);
  }

  it(
    'shows every page in Korean to a Korean browser, with no English left and nothing for axe to find',
    async () => {
      const context = await browser.newContext({ locale: 'ko-KR', viewport: { width: 360, height: 800 } });
      const page = await context.newPage();
      await page.goto(url('/console/login'));
      await expectClean(page, 'the login page in Korean at 360 px', 360);
      await logIn(page, { email: '이메일', password: '비밀번호', submit: '로그인' });
      for (const path of pages()) {
        await page.goto(url(path));
        await expect(page.locator('html').getAttribute('lang')).resolves.toBe('ko');
        if (path === `/console/payments/${paymentId}`) {
          await expect(page.locator('#cash-receipts li').count()).resolves.toBe(2);
        }
        const text = await page.content();
        expect({
          path,
          english: englishWords(text, [
            'Hanok Tea House',
            merchant.email,
            paymentId,
            'order-77',
            'customer-1',
            merchant.key.slice(-4),
            'Asia/Seoul',
          ]),
        }).toEqual({
          path,
          english: [],
        });
        for (const width of [360, 1280]) {
          await page.setViewportSize({ width, height: 800 });
          await expectClean(page, `${path} in Korean at ${width} px`, width);
        }
      }
      await context.close();
    },
    timeFor({ browser: 6 }),
  );

  it(
    'shows the pages in English once the member chooses English, though the browser asks for Korean',
    async () => {
      const context = await browser.newContext({ locale: 'ko-KR', viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      await logIn(page, { email: '이메일', password: '비밀번호', submit: '로그인' });
      await page.goto(url('/console/security'));
      await page.getByLabel('콘솔 언어').selectOption('en');
      await Promise.all([
        page.waitForURL('**notice=language'),
        page.getByRole('button', { name: '언어 저장' }).click(),
      ]);
      await expect(page.getByRole('status').innerText()).resolves.toBe('Language saved.');
      for (const path of pages()) {
        await page.goto(url(path));
        await expect(page.locator('html').getAttribute('lang')).resolves.toBe('en');
        for (const width of [360, 1280]) {
          await page.setViewportSize({ width, height: 800 });
          await expectClean(page, `${path} in English at ${width} px`, width);
        }
      }
      // Back to the browser's language.
      await page.goto(url('/console/security'));
      await page.getByLabel('Language of the console').selectOption('');
      await Promise.all([
        page.waitForURL('**notice=language'),
        page.getByRole('button', { name: 'Save language' }).click(),
      ]);
      await expect(page.locator('html').getAttribute('lang')).resolves.toBe('ko');
      await context.close();
    },
    timeFor({ browser: 6 }),
  );
});
