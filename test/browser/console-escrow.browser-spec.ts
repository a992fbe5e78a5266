import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { connectChromium, expectClean } from '../support/browser';
import { CONSOLE_PASSWORD, approvedMerchant } from '../support/console-client';
import { PaymentsApiHarness, paymentBody } from '../support/payments-api.harness';
import { timeFor } from '../support/time-budget';

type Merchant = Awaited<ReturnType<typeof approvedMerchant>>;

/** What a browser in each language reads on the pages, so the steps find their controls by name. */
const WORDS = {
  'ko-KR': {
    email: '이메일',
    password: '비밀번호',
    signIn: '로그인',
    carrier: '택배사',
    trackingNumber: '운송장 번호',
    ship: '배송 등록',
    correct: '수정 내용 저장',
    missing: '택배사를 입력하세요.',
    held: '보류',
  },
  'en-US': {
    email: 'Email',
    password: 'Password',
    signIn: 'Log in',
    carrier: 'Carrier',
    trackingNumber: 'Tracking number',
    ship: 'Register shipment',
    correct: 'Save correction',
    missing: 'Enter the carrier.',
    held: 'held',
  },
} as const;

/**
 * An escrow payment's page on a phone, as an owner uses it: the Escrow card
 * and its shipment form, the form's error state, the shipped escrow with its correction form, and
 * the held settlement on the Settlements page. axe-core (WCAG 2.1 AA) and no sideways scrolling at
 * 360 px on each, in Korean (the default) and in English.
 */
describe('an escrow payment in the console, on a phone (axe-core, WCAG 2.1 AA)', () => {
  let api: PaymentsApiHarness;
  let browser: Browser;

  beforeAll(
    async () => {
      [api, browser] = await Promise.all([PaymentsApiHarness.start(), connectChromium()]);
    },
    timeFor({ app: 1, browser: 1 }),
  );
  afterAll(async () => {
    await browser?.close();
    await api?.stop();
  });

  async function escrowPayment(merchant: Merchant): Promise<{ id: string; orderId: string }> {
    const created = await api
      .as(merchant)
      .post('/v1/payments')
      .set('Idempotency-Key', randomUUID())
      .send(paymentBody({ amount: 48_000, orderId: `${Date.now()}`, escrow: { buyerEmail: 'buyer@escrow.example' } }))
      .expect(201);
    const payment = created.body.data as { id: string; orderId: string };
    await api.as(merchant).post(`/v1/test-helpers/payments/${payment.id}/complete`).expect(200);
    return payment;
  }

  async function logIn(page: Page, merchant: Merchant, words: (typeof WORDS)[keyof typeof WORDS]): Promise<void> {
    await page.goto(`${api.baseUrl}/console/login`);
    await page.getByLabel(words.email, { exact: true }).fill(merchant.email);
    await page.getByLabel(words.password, { exact: true }).fill(CONSOLE_PASSWORD);
    await Promise.all([
      page.waitForURL('**/console/payments'),
      page.getByRole('button', { name: words.signIn }).click(),
    ]);
  }

  it.each(Object.keys(WORDS) as (keyof typeof WORDS)[])(
    'registers a shipment through the form, its error first, and shows the held settlement (%s)',
    async (locale) => {
      const words = WORDS[locale];
      const merchant = await approvedMerchant(api, { name: '한옥 찻집', timeZone: 'Asia/Seoul' });
      const payment = await escrowPayment(merchant);
      // The pages carry no script of their own (the CSP allows none): the form posts as plain HTML.
      const context = await browser.newContext({ locale, viewport: { width: 360, height: 800 } });
      const page = await context.newPage();
      await logIn(page, merchant, words);

      await page.goto(`${api.baseUrl}/console/payments/${payment.id}?mode=test`);
      await expect(page.locator('html').getAttribute('lang')).resolves.toBe(locale.slice(0, 2));
      await expect(page.locator('#escrow .badge.awaiting_shipment').count()).resolves.toBe(1);
      await expectClean(page, `the escrow card and its shipment form (${locale})`, 360);

      // Sent empty: the page again, the error on its field.
      await page.getByRole('button', { name: words.ship, exact: true }).click();
      await expect(page.locator('#shipment-carrier-error').innerText()).resolves.toBe(words.missing);
      await expect(page.getByLabel(words.carrier, { exact: true }).getAttribute('aria-invalid')).resolves.toBe('true');
      await expectClean(page, `the shipment form's errors (${locale})`, 360);

      // A carrier and tracking number longer than the phone is wide: they must wrap.
      await page.getByLabel(words.carrier, { exact: true }).fill('CJ대한통운');
      await page.getByLabel(words.trackingNumber, { exact: true }).fill('6'.repeat(64));
      await Promise.all([
        page.waitForURL('**notice=shipped*'),
        page.getByRole('button', { name: words.ship, exact: true }).click(),
      ]);
      await expect(page.locator('#escrow .badge.shipped').count()).resolves.toBe(1);
      await expect(page.getByRole('button', { name: words.correct, exact: true }).count()).resolves.toBe(1);
      await expectClean(page, `the shipped escrow and its correction form (${locale})`, 360);

      await page.goto(`${api.baseUrl}/console/settlements?mode=test`);
      await expect(page.locator(`td .badge.held`).innerText()).resolves.toBe(words.held);
      await expectClean(page, `a held settlement (${locale})`, 360);
      const salesDate = await page.locator('td[data-label]').first().innerText();
      await page.goto(`${api.baseUrl}/console/settlements?mode=test&date=${salesDate}`);
      await expect(page.locator('tfoot tr').count()).resolves.toBe(2);
      await expectClean(page, `a sales date's totals with a held part (${locale})`, 360);
      await context.close();
    },
    timeFor({ browser: 4 }),
  );
});
