import type { INestApplication } from '@nestjs/common';
import { verifyWebhookSignature } from '@payhook/signing';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { accessibilityViolations, artifactPath, connectChromium } from '../support/browser';
import { isolatedServices, type IsolatedServices } from '../support/isolated-services';
import { PaymentsApiHarness, paymentBody, type TestMerchant } from '../support/payments-api.harness';
import { pollUntil } from '../support/poll-until';
import { timeFor } from '../support/time-budget';
import { startDispatcher } from '../support/webhook-dispatcher.harness';
import { WebhookReceiver } from '../support/webhook-receiver';

/** Starting its own database, two apps and Chromium. */
const START_MS = timeFor({ database: 1, app: 2, browser: 1 });

/** The merchant's shop: where the user lands after paying. */
async function startShop(): Promise<{ server: Server; url: string; visits: URL[] }> {
  const visits: URL[] = [];
  const server = createServer((request, response) => {
    visits.push(new URL(request.url ?? '/', 'http://shop.local'));
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<h1>Thanks for your order</h1>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, visits };
}

describe('payment screen in a real browser', () => {
  let api: PaymentsApiHarness;
  let dispatcher: INestApplication;
  let receiver: WebhookReceiver;
  let shop: Awaited<ReturnType<typeof startShop>>;
  let browser: Browser;
  let merchant: TestMerchant;
  let signingSecret: string;

  let services: IsolatedServices;

  beforeAll(async () => {
    services = await isolatedServices('browser');
    [api, dispatcher, receiver, shop, browser] = await Promise.all([
      PaymentsApiHarness.start(services.env),
      startDispatcher(services.env),
      WebhookReceiver.start(),
      startShop(),
      connectChromium(),
    ]);
    merchant = await api.merchantWithKey('test');
    const endpoint = await api.as(merchant).put('/v1/webhook-endpoint').send({ url: receiver.url }).expect(200);
    signingSecret = endpoint.body.data.signingSecret;
  }, START_MS);
  afterAll(async () => {
    await browser.close();
    await dispatcher.close();
    await api.stop();
    await receiver.stop();
    shop.server.close();
    await services.drop();
  });

  /** payUrl points at PAY_URL; the browser reaches the same path on the API under test. */
  function screenUrl(payUrl: string): string {
    const port = (api.app.getHttpServer().address() as AddressInfo).port;
    return `http://127.0.0.1:${port}${new URL(payUrl).pathname}`;
  }

  it('pays with Complete, returns the user to the shop and delivers the signed webhook', async () => {
    const created = await api
      .as(merchant)
      .post('/v1/payments')
      .set('Idempotency-Key', 'browser-1')
      .send(paymentBody({ amount: 15000, returnUrl: `${shop.url}/orders/77?lang=ko` }))
      .expect(201);
    const payment = created.body.data as { id: string; orderId: string; payUrl: string };

    // The English screen, which this browser asks for (the Korean one: pay-screen-languages.browser-spec.ts).
    const page = await browser.newPage({ locale: 'en-US' });
    await page.goto(screenUrl(payment.payUrl));
    await expect(page.locator('.amount').innerText()).resolves.toBe('₩15,000');
    await expect(page.getByRole('note').innerText()).resolves.toContain('TEST MODE');
    await expect(page.title()).resolves.toContain('Test Shop');
    await expect(accessibilityViolations(page)).resolves.toEqual([]);

    await Promise.all([
      page.waitForURL(`${shop.url}/orders/77**`),
      page.getByRole('button', { name: 'Complete payment' }).click(),
    ]);
    await expect(page.locator('h1').innerText()).resolves.toBe('Thanks for your order');
    const landed = new URL(page.url());
    expect(shop.visits.some((visit) => visit.pathname === '/orders/77')).toBe(true);
    expect(landed.pathname).toBe('/orders/77');
    expect(Object.fromEntries(landed.searchParams)).toEqual({
      lang: 'ko',
      paymentId: payment.id,
      orderId: payment.orderId,
      status: 'completed',
    });

    const [delivery] = await pollUntil(
      async () => receiver.received.filter((d) => JSON.parse(d.rawBody.toString()).data.paymentId === payment.id),
      (deliveries) => deliveries.length === 1,
    );
    expect(() =>
      verifyWebhookSignature(delivery.rawBody, delivery.headers['service-signature'] as string, signingSecret),
    ).not.toThrow();
    await page.close();
  });

  it('sends the payer back from "Check for my payment" once a test deposit has completed the payment', async () => {
    const created = await api
      .as(merchant)
      .post('/v1/payments')
      .set('Idempotency-Key', 'browser-check')
      .send(paymentBody({ amount: 15000, returnUrl: `${shop.url}/orders/78` }))
      .expect(201);
    const payment = created.body.data as { id: string; payUrl: string };
    const page = await browser.newPage({ locale: 'en-US' });
    await page.goto(screenUrl(payment.payUrl));
    const check = page.getByRole('link', { name: 'Check for my payment' });
    // Nothing has arrived yet: the check shows the same screen.
    await Promise.all([page.waitForURL(screenUrl(payment.payUrl)), check.click()]);
    await expect(page.locator('#status').innerText()).resolves.toBe('Waiting for payment');

    await api.as(merchant).post(`/v1/test-helpers/payments/${payment.id}/deposit`).expect(201);
    await Promise.all([page.waitForURL(`${shop.url}/orders/78**`), check.click()]);
    expect(new URL(page.url()).searchParams.get('status')).toBe('completed');
    await page.close();
  });

  it('reads well on a 360 px wide phone screen', async () => {
    const created = await api
      .as(merchant)
      .post('/v1/payments')
      .set('Idempotency-Key', 'browser-2')
      .send(paymentBody({ amount: 1234567890 }))
      .expect(201);
    const page = await browser.newPage({
      viewport: { width: 360, height: 740 },
      deviceScaleFactor: 2,
      locale: 'en-US',
    });
    await page.goto(screenUrl(created.body.data.payUrl as string));
    // Nothing wider than the screen: no sideways scrolling on a phone.
    const scrollWidth = await page.evaluate<number>('document.documentElement.scrollWidth');
    expect(scrollWidth).toBeLessThanOrEqual(360);
    const button = await page.getByRole('button', { name: 'Complete payment' }).boundingBox();
    expect(button!.height).toBeGreaterThanOrEqual(44);
    await page.screenshot({ path: artifactPath('pay-screen-360.png'), fullPage: true });
    // Keyboard users reach the language link, then the first button, with Tab.
    await page.keyboard.press('Tab');
    await expect(page.evaluate<string | undefined>('document.activeElement?.textContent?.trim()')).resolves.toBe(
      '한국어',
    );
    await page.keyboard.press('Tab');
    await expect(page.evaluate<string | undefined>('document.activeElement?.textContent?.trim()')).resolves.toBe(
      'Complete payment',
    );
    await page.close();
  });
});
