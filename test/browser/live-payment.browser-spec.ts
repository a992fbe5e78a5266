import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { accessibilityViolations, artifactPath, connectChromium } from '../support/browser';
import { newVoucherPin } from '../support/pay-screen-client';
import { PaymentsApiHarness, paymentBody, type TestMerchant } from '../support/payments-api.harness';
import { BUDGET_MS, timeFor } from '../support/time-budget';

const SHOP = 'https://shop.example';
const START_MS = timeFor({ database: 1, app: 1, browser: 1 });

describe('a live payment in a real browser: bank transfer and gift vouchers', () => {
  let api: PaymentsApiHarness;
  let browser: Browser;
  let merchant: TestMerchant;

  beforeAll(async () => {
    [api, browser] = await Promise.all([PaymentsApiHarness.start(), connectChromium()]);
    merchant = await api.merchantWithKey('live', { live: true });
  }, START_MS);
  afterAll(async () => {
    await browser.close();
    await api.stop();
  });

  async function livePayment(amount: number) {
    const created = await api
      .as(merchant)
      .post('/v1/payments')
      .set('Idempotency-Key', randomUUID())
      .send(paymentBody({ amount, returnUrl: `${SHOP}/orders/9?src=pay` }))
      .expect(201);
    return created.body.data as { id: string; orderId: string; payUrl: string };
  }

  /** A phone-sized page, whose browser prefers `locale` (Korean, the screen's default, unless told). */
  function phone(locale = 'ko-KR'): Promise<Page> {
    return browser.newPage({ viewport: { width: 360, height: 740 }, locale });
  }

  /**
   * The user's way back to the shop: the browser's request for the returnUrl. (Live returnUrls are https on
   * a host that does not exist here; the request is what matters, not its answer.)
   */
  async function backToShop(page: Page, timeout = BUDGET_MS.browser): Promise<URL> {
    const request = await page.waitForRequest((candidate) => candidate.url().startsWith(`${SHOP}/`), { timeout });
    return new URL(request.url());
  }

  function screenUrl(payUrl: string): string {
    const port = (api.app.getHttpServer().address() as AddressInfo).port;
    return `http://127.0.0.1:${port}${new URL(payUrl).pathname}`;
  }

  it('shows the deposit details and returns the user once the bank reports the transfer', async () => {
    const payment = await livePayment(15_000);
    const page = await phone();
    await page.goto(screenUrl(payment.payUrl));
    await expect(page.locator('html').getAttribute('lang')).resolves.toBe('ko');
    await expect(page.getByRole('heading', { name: '무통장입금' }).isVisible()).resolves.toBe(true);
    const code = (await page.locator('#deposit-code').innerText()).trim();
    expect(code).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}$/);
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(360);
    await expect(accessibilityViolations(page)).resolves.toEqual([]);
    await page.screenshot({ path: artifactPath('pay-screen-live-360.png'), fullPage: true });

    // The bank side reports the transfer with the code as the payer typed it.
    const back = backToShop(page);
    await api
      .admin()
      .post('/admin/v1/deposits')
      .send({
        bankTransactionId: randomUUID(),
        amount: 15_000,
        depositCode: code.toLowerCase(),
        depositorName: '홍길동',
        receivedAt: new Date().toISOString(),
      })
      .expect(201);
    // The payer checks, and the confirmed payment sends them back to the shop.
    await page.getByRole('link', { name: '입금 확인' }).click();
    const landed = await back;
    expect(landed.pathname).toBe('/orders/9');
    expect(Object.fromEntries(landed.searchParams)).toEqual({
      src: 'pay',
      paymentId: payment.id,
      orderId: payment.orderId,
      status: 'completed',
    });
    await page.close();
  });

  it('pays with two gift vouchers, the first leaving a balance', async () => {
    const payment = await livePayment(15_000);
    const pins = [newVoucherPin(), newVoucherPin()];
    await api
      .admin()
      .post('/admin/v1/vouchers')
      .send({
        vouchers: [
          { pin: pins[0], faceValue: 10_000, kind: 'culture' },
          { pin: pins[1], faceValue: 5_000, kind: 'book' },
        ],
      })
      .expect(201);
    const page = await phone('en-US');
    await page.goto(screenUrl(payment.payUrl));
    await page.getByRole('link', { name: /gift voucher PINs/ }).click();
    await page.getByLabel(/Voucher PINs/).fill(pins[0]);
    await page.getByRole('button', { name: 'Apply vouchers' }).click();
    await expect(page.getByRole('status').innerText()).resolves.toContain('applied (₩10,000)');
    await expect(page.locator('#left-to-pay').innerText()).resolves.toBe('₩5,000');
    await expect(accessibilityViolations(page)).resolves.toEqual([]);

    await page.getByLabel(/Voucher PINs/).fill(pins[1]);
    const [landed] = await Promise.all([
      backToShop(page),
      page.getByRole('button', { name: 'Apply vouchers' }).click(),
    ]);
    expect(landed.searchParams.get('status')).toBe('completed');
    const stored = await api.as(merchant).get(`/v1/payments/${payment.id}`).expect(200);
    expect(stored.body.data.status).toBe('completed');
    await page.close();
  });
});
