import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { artifactPath, connectChromium, expectClean } from '../support/browser';
import { PaymentsApiHarness, paymentBody, type TestMerchant } from '../support/payments-api.harness';
import { timeFor } from '../support/time-budget';

const START_MS = timeFor({ database: 1, app: 1, browser: 1 });

/** What each language's form says where the spec looks. */
const WORDS = {
  ko: {
    heading: '현금영수증',
    incomeDeduction: '소득공제 (휴대폰번호)',
    expenseProof: '지출증빙 (사업자등록번호)',
    number: '휴대폰번호 또는 사업자등록번호',
    submit: '현금영수증 신청',
    badBusinessNumber: '올바른 사업자등록번호가 아닙니다',
    badMobileNumber: '휴대폰번호(01로 시작하는 10~11자리)',
    asked: '현금영수증을 신청했습니다',
    incomeDeductionName: '소득공제',
    change: '신청 내용 변경',
    save: '변경 내용 저장',
    errorTitle: '오류: ',
  },
  en: {
    heading: 'Cash receipt',
    incomeDeduction: 'Income deduction (mobile number)',
    expenseProof: 'Expense proof (business registration number)',
    number: 'Mobile number or business registration number',
    submit: 'Ask for a cash receipt',
    badBusinessNumber: 'This is not a valid business registration number',
    badMobileNumber: 'Enter a mobile number (10 or 11 digits starting 01)',
    asked: 'Cash receipt requested',
    incomeDeductionName: 'Income deduction',
    change: 'Change the request',
    save: 'Save the change',
    errorTitle: 'Error: ',
  },
} as const;

/**
 * The cash receipt form (현금영수증) on a phone 360 px wide with JavaScript off, as a buyer without
 * script uses it: filled and sent, wrong then right, then changed; axe-clean in every state.
 */
describe('payment screen: the cash receipt form in a real browser', () => {
  let api: PaymentsApiHarness;
  let browser: Browser;
  let testMerchant: TestMerchant;
  let liveMerchant: TestMerchant;

  beforeAll(async () => {
    [api, browser] = await Promise.all([PaymentsApiHarness.start(), connectChromium()]);
    [testMerchant, liveMerchant] = await Promise.all([
      api.merchantWithKey('test'),
      api.merchantWithKey('live', { live: true }),
    ]);
  }, START_MS);
  afterAll(async () => {
    await browser.close();
    await api.stop();
  });

  async function createPayment(merchant: TestMerchant) {
    const created = await api
      .as(merchant)
      .post('/v1/payments')
      .set('Idempotency-Key', randomUUID())
      .send(paymentBody({ amount: 15_000, returnUrl: 'https://shop.example/orders/5' }))
      .expect(201);
    return created.body.data as { id: string; payUrl: string };
  }

  function screenUrl(payUrl: string): string {
    const port = (api.app.getHttpServer().address() as AddressInfo).port;
    return `http://127.0.0.1:${port}${new URL(payUrl).pathname}`;
  }

  /**
   * A phone 360 px wide. The screen has no script (its CSP allows none), so JavaScript changes nothing
   * on it; axe needs it on to run. `javaScript: false`: a browser without it, as some buyers have.
   */
  async function phone(locale: string, { javaScript = true } = {}): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({
      viewport: { width: 360, height: 740 },
      deviceScaleFactor: 2,
      locale,
      javaScriptEnabled: javaScript,
    });
    return { context, page: await context.newPage() };
  }

  /** Sends the form with its button: the status of the POST's answer (303 back to the screen, or 400), its page loaded. */
  async function submit(page: Page, send: () => Promise<void>): Promise<number> {
    const [response] = await Promise.all([
      page.waitForResponse((candidate) => candidate.request().method() === 'POST'),
      page.waitForEvent('load'),
      send(),
    ]);
    return response.status();
  }

  const press = (page: Page, button: string) => () => page.getByRole('button', { name: button, exact: true }).click();

  it.each([
    ['ko', 'ko-KR', 'test'],
    ['en', 'en-US', 'live'],
  ] as const)(
    'asks for a receipt through the %s screen (browser %s, %s mode) at 360 px',
    async (lang, locale, mode) => {
      const words = WORDS[lang];
      const merchant = mode === 'test' ? testMerchant : liveMerchant;
      const payment = await createPayment(merchant);
      const { context, page } = await phone(locale);
      await page.goto(screenUrl(payment.payUrl));
      await expect(page.getByRole('heading', { name: words.heading, exact: true }).isVisible()).resolves.toBe(true);
      await expectClean(page, `the form, ${lang}`, 360);
      // Each choice is a target a thumb can hit.
      for (const label of [words.incomeDeduction, words.expenseProof]) {
        const box = (await page.locator('label', { hasText: label }).boundingBox())!;
        expect({ label, tall: box.height >= 44 }).toEqual({ label, tall: true });
      }
      const number = page.getByRole('textbox', { name: words.number });
      expect((await number.boundingBox())!.height).toBeGreaterThanOrEqual(44);

      // A business number whose check digit is wrong: the screen comes back with the error at the field.
      await page.getByLabel(words.expenseProof).check();
      await number.fill('220-81-62518');
      await expect(submit(page, press(page, words.submit))).resolves.toBe(400);
      expect(new URL(page.url()).hash).toBe('#cash-receipt');
      await expect(page.title()).resolves.toMatch(new RegExp(`^${words.errorTitle}`));
      const error = page.locator('#identity-number-error');
      await expect(error.innerText()).resolves.toContain(words.badBusinessNumber);
      await expect(number.getAttribute('aria-describedby')).resolves.toBe('identity-number-error identity-number-hint');
      await expect(number.getAttribute('aria-invalid')).resolves.toBe('true');
      await expect(page.getByLabel(words.expenseProof).isChecked()).resolves.toBe(true);
      await expect(number.inputValue()).resolves.toBe('');
      await expectClean(page, `the form with an error, ${lang}`, 360);
      await page.screenshot({ path: artifactPath(`pay-screen-cash-receipt-error-${lang}-360.png`), fullPage: true });

      // A mobile number: kept, and shown masked on the screen.
      await page.getByLabel(words.incomeDeduction).check();
      await number.fill('010-1234-5678');
      await expect(submit(page, press(page, words.submit))).resolves.toBe(303);
      expect(new URL(page.url()).pathname).toBe(new URL(payment.payUrl).pathname);
      const asked = page.locator('#cash-receipt');
      await expect(asked.getByRole('status').innerText()).resolves.toContain(words.asked);
      await expect(asked.locator('dd').first().innerText()).resolves.toBe(words.incomeDeductionName);
      await expect(page.locator('#cash-receipt-asked-number').innerText()).resolves.toBe('*******5678');
      const content = await page.content();
      expect(content).not.toContain('01012345678');
      expect(content).not.toContain('010-1234-5678');
      // The form to change it waits behind its summary.
      await expect(number.isVisible()).resolves.toBe(false);
      await expectClean(page, `the request shown masked, ${lang}`, 360);
      await page.screenshot({ path: artifactPath(`pay-screen-cash-receipt-asked-${lang}-360.png`), fullPage: true });

      // Changing it: a wrong mobile number comes back with the form open and the request unchanged.
      await page.getByText(words.change, { exact: true }).click();
      await expect(number.isVisible()).resolves.toBe(true);
      await expectClean(page, `the change form open, ${lang}`, 360);
      await number.fill('02-123-4567');
      await expect(submit(page, press(page, words.save))).resolves.toBe(400);
      await expect(number.isVisible()).resolves.toBe(true);
      await expect(error.innerText()).resolves.toContain(words.badMobileNumber);
      await expect(page.locator('#cash-receipt-asked-number').innerText()).resolves.toBe('*******5678');
      await expectClean(page, `the change form with an error, ${lang}`, 360);
      await context.close();

      // Once the payment completes, the receipt is made for what was asked.
      if (mode === 'test') {
        await api.as(merchant).post(`/v1/test-helpers/payments/${payment.id}/complete`).expect(200);
      } else {
        await api.admin().post(`/admin/v1/payments/${payment.id}/confirm-receipt`).expect(200);
      }
      const receipts = await api.as(merchant).get(`/v1/cash-receipts?paymentId=${payment.id}`).expect(200);
      expect(receipts.body.data).toEqual([
        expect.objectContaining({
          type: 'income_deduction',
          identityNumber: '*******5678',
          status: mode === 'test' ? 'issued' : 'pending',
        }),
      ]);
    },
  );

  it('works without JavaScript and with the keyboard alone: a choice by the arrows, the number, the button', async () => {
    const payment = await createPayment(testMerchant);
    const { context, page } = await phone('en-US', { javaScript: false });
    await page.goto(screenUrl(payment.payUrl));
    await page.getByLabel(WORDS.en.incomeDeduction).focus();
    await page.keyboard.press('ArrowDown');
    await expect(page.getByLabel(WORDS.en.expenseProof).isChecked()).resolves.toBe(true);
    await page.keyboard.press('Tab');
    await page.keyboard.type('2208162517');
    await page.keyboard.press('Tab');
    await expect(page.evaluate<string | undefined>('document.activeElement?.textContent?.trim()')).resolves.toBe(
      WORDS.en.submit,
    );
    await expect(submit(page, () => page.keyboard.press('Enter'))).resolves.toBe(303);
    await expect(page.locator('#cash-receipt-asked-number').innerText()).resolves.toBe('******2517');
    // And an error, sent back by the server alone.
    await page.getByText(WORDS.en.change, { exact: true }).click();
    await page.getByRole('textbox', { name: WORDS.en.number }).fill('2208162518');
    await expect(submit(page, press(page, WORDS.en.save))).resolves.toBe(400);
    await expect(page.locator('#identity-number-error').innerText()).resolves.toContain(WORDS.en.badBusinessNumber);
    await context.close();
  });
});
