import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { accessibilityViolations, artifactPath, expectClean, connectChromium } from '../support/browser';
import { CONSOLE_PASSWORD, approvedMerchant } from '../support/console-client';
import { PaymentsApiHarness, paymentBody } from '../support/payments-api.harness';
import { timeFor } from '../support/time-budget';

/** The check every page goes through finds what it should: a guard against a check that passes by not running. */
describe('the accessibility check (axe-core, WCAG 2.1 AA)', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await connectChromium();
  });
  afterAll(() => browser.close());

  it('reports an image without alt text, an unlabeled input and grey-on-white text', async () => {
    const page = await browser.newPage();
    await page.setContent(`<!doctype html><html lang="en"><head><title>t</title></head><body><main>
      <img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">
      <input type="text">
      <p style="color:#bbb;background:#fff">faint</p></main></body></html>`);
    const rules = (await accessibilityViolations(page)).map((line) => line.split(':')[0]);
    expect(rules).toEqual(expect.arrayContaining(['image-alt', 'label', 'color-contrast']));
    await page.close();
  });
});

/** The refund pages of the console (issue 26): each clean at a phone's 360 px and a desktop's 1280 px. */
describe('console refund pages (axe-core, WCAG 2.1 AA)', () => {
  let api: PaymentsApiHarness;
  let browser: Browser;
  let merchant: Awaited<ReturnType<typeof approvedMerchant>>;

  beforeAll(
    async () => {
      [api, browser] = await Promise.all([PaymentsApiHarness.start(), connectChromium()]);
      merchant = await approvedMerchant(api, { name: 'Hanok Tea House', timeZone: 'Asia/Seoul' });
    },
    timeFor({ app: 1, browser: 1 }),
  );
  afterAll(async () => {
    await browser?.close();
    await api?.stop();
  });

  const consoleUrl = (path: string) =>
    `http://127.0.0.1:${(api.app.getHttpServer().address() as AddressInfo).port}${path}`;

  async function completedPayment(extra: Record<string, unknown> = {}): Promise<{ id: string; orderId: string }> {
    const created = await api
      .as(merchant)
      .post('/v1/payments')
      .set('Idempotency-Key', randomUUID())
      .send(paymentBody({ amount: 32_000, ...extra }))
      .expect(201);
    await api.as(merchant).post(`/v1/test-helpers/payments/${created.body.data.id}/complete`).expect(200);
    return created.body.data;
  }

  async function logIn(page: Page, email: string): Promise<void> {
    await page.goto(consoleUrl('/console/login'));
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(CONSOLE_PASSWORD);
    await Promise.all([page.waitForURL('**/console/payments'), page.getByRole('button', { name: 'Log in' }).click()]);
  }

  it('shows the live refund form with the missing account marked, at 360 and 1280 px', async () => {
    const live = await approvedMerchant(api, { name: 'Live Tea House' });
    await api.sql(`UPDATE merchants SET status = 'live' WHERE id = $1`, [live.merchantId]);
    const liveKey = await api.issueKey(live.merchantId, 'live');
    const created = await api
      .as(liveKey)
      .post('/v1/payments')
      .set('Idempotency-Key', randomUUID())
      .send(paymentBody({ amount: 45_000, returnUrl: 'https://shop.example/return' }))
      .expect(201);
    await api.admin().post(`/admin/v1/payments/${created.body.data.id}/confirm-receipt`).expect(200);
    const page = await browser.newPage({ viewport: { width: 360, height: 800 } });
    await logIn(page, live.email);
    await page.goto(consoleUrl(`/console/payments/${created.body.data.id}?mode=live`));
    await page.getByLabel('Bank').fill('Shinhan Bank');
    await Promise.all([
      page.waitForURL('**/refunds/review'),
      page.getByRole('button', { name: 'Review refund…' }).click(),
    ]);
    await expect(page.getByLabel('Account number').getAttribute('aria-invalid')).resolves.toBe('true');
    for (const width of [360, 1280]) {
      await page.setViewportSize({ width, height: 800 });
      await expectClean(page, `live refund form with errors at ${width} px`, width);
    }
    await page.close();
  });

  for (const width of [360, 1280]) {
    it(`refunds a payment at ${width} px: the form with an error, the confirmation and the payment with its refund`, async () => {
      const paid = await completedPayment();
      const page = await browser.newPage({ viewport: { width, height: 800 } });
      await logIn(page, merchant.email);
      await page.goto(consoleUrl(`/console/payments/${paid.id}?mode=test`));

      // More than is left: the form comes back with the error tied to the field.
      const amount = page.getByLabel('Amount in won');
      await expect(amount.inputValue()).resolves.toBe('32000');
      await amount.fill('40000');
      await page.getByLabel('Reason (optional)').fill('Wrong tea sent');
      await Promise.all([
        page.waitForURL('**/refunds/review'),
        page.getByRole('button', { name: 'Review refund…' }).click(),
      ]);
      await expect(amount.getAttribute('aria-invalid')).resolves.toBe('true');
      await expect(page.locator('#refund-amount-error').innerText()).resolves.toContain('at most ₩32,000 is left');
      await expectClean(page, 'refund form with an error', width);

      await amount.fill('12000');
      await Promise.all([
        page.waitForURL('**/refunds/review'),
        page.getByRole('button', { name: 'Review refund…' }).click(),
      ]);
      await expect(page.locator('h1').innerText()).resolves.toBe(
        `Refund ₩12,000 of payment ${paid.id} (order ${paid.orderId})?`,
      );
      await expectClean(page, 'refund confirmation', width);

      await Promise.all([
        page.waitForURL('**notice=refunded**'),
        page.getByRole('button', { name: 'Confirm refund' }).click(),
      ]);
      await expect(page.locator('#refunds ul.refunds').innerText()).resolves.toMatch(
        /₩12,000[\s\S]*succeeded[\s\S]*Wrong tea sent/,
      );
      await expectClean(page, 'payment with a refund', width);
      const [{ day }] = await api.sql<{ day: string }>(
        `SELECT to_char(sales_date, 'YYYY-MM-DD') AS day FROM settlements WHERE payment_id = $1 AND type = 'refund'`,
        [paid.id],
      );
      await page.goto(consoleUrl(`/console/settlements?mode=test&date=${day}`));
      await expect(page.locator('tbody').innerText()).resolves.toContain('Refund');
      await expectClean(page, 'settlements with a refund record', width);
      if (width >= 1280) {
        // On a desktop screen the day's records fit: no column is left behind a sideways scroll.
        const records = page.getByRole('region', { name: 'Settlement records' });
        const overflow = await records.evaluate((region) => region.scrollWidth - region.clientWidth);
        expect(overflow).toBeLessThanOrEqual(0);
      }
      await page.screenshot({ path: artifactPath(`console-payment-refunded-${width}.png`), fullPage: true });
      await page.close();
    });
  }

  it('takes a tax-free part with its error tied to the field, and shows the refund split, at 360 and 1280 px', async () => {
    // ₩32,000 with ₩5,000 tax-free.
    const paid = await completedPayment({ taxFreeAmount: 5_000 });
    const page = await browser.newPage({ viewport: { width: 360, height: 800 } });
    await logIn(page, merchant.email);
    await page.goto(consoleUrl(`/console/payments/${paid.id}?mode=test`));
    await page.getByLabel('Amount in won').fill('2000');
    const taxFree = page.getByLabel('Tax-free part in won (optional)');
    await taxFree.fill('2001');
    await Promise.all([
      page.waitForURL('**/refunds/review'),
      page.getByRole('button', { name: 'Review refund…' }).click(),
    ]);
    await expect(taxFree.getAttribute('aria-invalid')).resolves.toBe('true');
    await expect(page.locator('#refund-taxFreeAmount-error').innerText()).resolves.toContain(
      'cannot be more than the amount to refund',
    );
    for (const width of [360, 1280]) {
      await page.setViewportSize({ width, height: 800 });
      await expectClean(page, `refund form with a tax-free error at ${width} px`, width);
    }
    await taxFree.fill('2000');
    await Promise.all([
      page.waitForURL('**/refunds/review'),
      page.getByRole('button', { name: 'Review refund…' }).click(),
    ]);
    await Promise.all([
      page.waitForURL('**notice=refunded**'),
      page.getByRole('button', { name: 'Confirm refund' }).click(),
    ]);
    await expect(page.locator('#refunds ul.refunds').innerText()).resolves.toMatch(
      /Tax-free part\s*₩2,000\s*VAT\s*₩0\s*Supplied value\s*₩0/,
    );
    for (const width of [360, 1280]) {
      await page.setViewportSize({ width, height: 800 });
      await expectClean(page, `payment with a tax-free refund at ${width} px`, width);
    }
    await page.close();
  });
});

/** Several webhook endpoints in the console (issue 27): add, edit, disable, rotate and delete, each page clean. */
describe('console webhook endpoints (axe-core, WCAG 2.1 AA)', () => {
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

  const consoleUrl = (path: string) =>
    `http://127.0.0.1:${(api.app.getHttpServer().address() as AddressInfo).port}${path}`;

  for (const width of [360, 1280]) {
    it(`manages a mode's endpoints at ${width} px`, async () => {
      const merchant = await approvedMerchant(api, { name: 'Several Hooks Shop' });
      await api.as(merchant).put('/v1/webhook-endpoint').send({ url: 'https://shop.example/orders' }).expect(200);
      const page = await browser.newPage({ viewport: { width, height: 800 } });
      await page.goto(consoleUrl('/console/login'));
      await page.getByLabel('Email').fill(merchant.email);
      await page.getByLabel('Password').fill(CONSOLE_PASSWORD);
      await Promise.all([page.waitForURL('**/console/payments'), page.getByRole('button', { name: 'Log in' }).click()]);
      await page.goto(consoleUrl('/console/developers'));

      // Add a second test endpoint that also takes refunds.
      await page.getByText('Add another test endpoint').click();
      const add = page.locator('#add-endpoint-test');
      await add.getByLabel('URL').fill('https://books.example/hooks');
      await add.getByLabel('Description').fill('Accounting');
      await add.getByLabel('refund.succeeded').check();
      await expectClean(page, 'the add form', width);
      await Promise.all([
        page.waitForURL('**notice=endpoint-added**'),
        add.getByRole('button', { name: 'Add endpoint' }).click(),
      ]);
      const [, added] = (await api.as(merchant).get('/v1/webhook-endpoints').expect(200)).body.data as {
        id: string;
        enabledEvents: string[];
        status: string;
      }[];
      expect(added).toMatchObject({
        description: 'Accounting',
        url: 'https://books.example/hooks',
        enabledEvents: ['payment.completed', 'refund.succeeded'],
      });
      const section = page.locator(`#endpoint-${added.id}`);
      await expect(section.innerText()).resolves.toContain('Accounting');

      // Disable it, and enable it again.
      await Promise.all([
        page.waitForURL('**notice=endpoint-disabled**'),
        section.getByRole('button', { name: 'Disable' }).click(),
      ]);
      await expect(section.innerText()).resolves.toContain('Disabled');
      // Every page says so while it is disabled, until it is enabled again.
      await expect(page.locator('#webhook-banner').innerText()).resolves.toContain('https://books.example/hooks');
      await expectClean(page, 'a disabled endpoint', width);
      await Promise.all([
        page.waitForURL('**notice=endpoint-enabled**'),
        section.getByRole('button', { name: 'Enable' }).click(),
      ]);
      await expect(page.locator('#webhook-banner').count()).resolves.toBe(0);
      expect((await api.as(merchant).get(`/v1/webhook-endpoints/${added.id}`).expect(200)).body.data.status).toBe(
        'enabled',
      );

      // Rotate its secret with an overlap, through the confirmation.
      const before = (await api.as(merchant).get(`/v1/webhook-endpoints/${added.id}`)).body.data.signingSecret;
      await section.getByRole('link', { name: 'Rotate signing secret…' }).click();
      await page.getByLabel('24 hours').check();
      await expectClean(page, 'the rotation confirmation', width);
      await Promise.all([
        page.waitForURL('**notice=secret-rotated**'),
        page.getByRole('button', { name: 'Rotate secret' }).click(),
      ]);
      expect((await api.as(merchant).get(`/v1/webhook-endpoints/${added.id}`)).body.data.signingSecret).not.toBe(
        before,
      );

      // Delete it, through the confirmation.
      await page.locator(`#endpoint-${added.id}`).getByRole('link', { name: 'Delete…' }).click();
      await expectClean(page, 'the delete confirmation', width);
      await Promise.all([
        page.waitForURL('**notice=endpoint-deleted**'),
        page.getByRole('button', { name: 'Delete endpoint' }).click(),
      ]);
      await expect(page.locator(`#endpoint-${added.id}`).count()).resolves.toBe(0);
      expect((await api.as(merchant).get('/v1/webhook-endpoints').expect(200)).body.data).toHaveLength(1);
      await expectClean(page, 'the developers page', width);
      await page.close();
    });
  }

  for (const width of [360, 1280]) {
    it(`shows the failing endpoint's banner on every console page at ${width} px`, async () => {
      const merchant = await approvedMerchant(api, { name: 'Failing Hooks Shop' });
      const url = 'https://shop.example/a/rather/long/path/to/the/orders/webhook/receiver';
      await api.as(merchant).put('/v1/webhook-endpoint').send({ url }).expect(200);
      // What the dispatcher records after a day of failed automatic attempts (WEBHOOK_NOTICE_AFTER: 24h).
      await api.sql(
        `UPDATE webhook_endpoints SET failing_since = now() - interval '25 hours', consecutive_failures = 12,
           last_error = 'HTTP 503' WHERE merchant_id = $1`,
        [merchant.merchantId],
      );
      const page = await browser.newPage({ viewport: { width, height: 800 } });
      await page.goto(consoleUrl('/console/login'));
      await page.getByLabel('Email').fill(merchant.email);
      await page.getByLabel('Password').fill(CONSOLE_PASSWORD);
      await Promise.all([page.waitForURL('**/console/payments'), page.getByRole('button', { name: 'Log in' }).click()]);
      for (const path of ['/console/payments', '/console/settlements', '/console/developers', '/console/settings']) {
        await page.goto(consoleUrl(path));
        const banner = await page.locator('#webhook-banner').innerText();
        expect(banner).toContain(url);
        expect(banner).toContain('has failed every automatic delivery since');
        await expectClean(page, `${path} with the banner`, width);
      }
      await page.getByRole('link', { name: 'Open Developers (test)' }).click();
      await page.waitForURL('**/console/developers?mode=test');
      await page.close();
    });
  }

  it("shows a payment's delivery to each endpoint", async () => {
    const merchant = await approvedMerchant(api, { name: 'Two Hooks Shop' });
    await api.as(merchant).put('/v1/webhook-endpoint').send({ url: 'https://shop.example/orders' }).expect(200);
    const second = (
      await api.as(merchant).post('/v1/webhook-endpoints').send({ url: 'https://books.example/hooks' }).expect(201)
    ).body.data.id as string;
    const created = await api
      .as(merchant)
      .post('/v1/payments')
      .set('Idempotency-Key', randomUUID())
      .send(paymentBody())
      .expect(201);
    await api.as(merchant).post(`/v1/test-helpers/payments/${created.body.data.id}/complete`).expect(200);
    const page = await browser.newPage({ viewport: { width: 360, height: 800 } });
    await page.goto(consoleUrl('/console/login'));
    await page.getByLabel('Email').fill(merchant.email);
    await page.getByLabel('Password').fill(CONSOLE_PASSWORD);
    await Promise.all([page.waitForURL('**/console/payments'), page.getByRole('button', { name: 'Log in' }).click()]);
    await page.goto(consoleUrl(`/console/payments/${created.body.data.id}?mode=test`));
    // No dispatcher runs here: both deliveries are still pending, each shown on its own.
    await expect(page.locator('section.event dl').innerText()).resolves.toContain(second);
    await expectClean(page, 'a payment with two deliveries', 360);
    await page.close();
  });
});
