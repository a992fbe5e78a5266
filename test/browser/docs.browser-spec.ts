import type { Browser } from 'playwright-core';
import { accessibilityViolations, connectChromium } from '../support/browser';
import { PaymentsApiHarness } from '../support/payments-api.harness';

/** GET /docs: the OpenAPI reference as a page, served by payhook alone and accessible. */
describe('the API reference page /docs', () => {
  let api: PaymentsApiHarness;
  let browser: Browser;

  beforeAll(async () => {
    [api, browser] = await Promise.all([PaymentsApiHarness.start(), connectChromium()]);
  });
  afterAll(async () => {
    await browser.close();
    await api.stop();
  });

  it('renders every operation of /v1/openapi.json with examples, asks no other host, keeps the strict CSP and passes WCAG 2.1 AA', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const hosts = new Set<string>();
    page.on('request', (request) => hosts.add(new URL(request.url()).host));
    const response = await page.goto(`${api.baseUrl}/docs`);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toMatch(/default-src 'none'; style-src 'nonce-[^']+'/);
    expect([...hosts]).toEqual([new URL(api.baseUrl).host]);

    const document = (await api.http().get('/v1/openapi.json').expect(200)).body as {
      paths: Record<string, Record<string, unknown>>;
    };
    const headings = await page.locator('section h3').allInnerTexts();
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const method of Object.keys(methods)) expect(headings).toContain(`${method.toUpperCase()} ${path}`);
    }
    await expect(page.getByRole('heading', { name: 'PaymentEvent' }).isVisible()).resolves.toBe(true);
    // Each response shape with its example recorded from a real answer.
    const example = page.getByRole('region', { name: 'Example of Payment', exact: true });
    await expect(example.innerText()).resolves.toContain('"status": "completed"');
    // The merchant guide is one link away, served by payhook itself.
    await page.getByRole('link', { name: 'merchant guide' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'payhook merchant guide' }).isVisible()).resolves.toBe(
      true,
    );
    // Its Contents links land on their sections; its wide tables scroll inside the page.
    await page.getByRole('link', { name: 'Errors', exact: true }).click();
    expect(new URL(page.url()).hash).toBe('#errors');
    await expect(page.getByRole('heading', { level: 2, name: 'Errors' }).isVisible()).resolves.toBe(true);
    await expect(page.getByRole('region', { name: /^Table \d+: Errors$/ }).isVisible()).resolves.toBe(true);
    // A Korean heading's link lands too.
    await page.getByRole('link', { name: 'Cash receipts (현금영수증)', exact: true }).click();
    expect(decodeURIComponent(new URL(page.url()).hash)).toBe('#cash-receipts-현금영수증');
    await expect(page.getByRole('heading', { level: 2, name: 'Cash receipts (현금영수증)' }).isVisible()).resolves.toBe(
      true,
    );
    await expect(accessibilityViolations(page)).resolves.toEqual([]);
    expect([...hosts]).toEqual([new URL(api.baseUrl).host]);
    await page.goto(`${api.baseUrl}/docs`);
    await expect(accessibilityViolations(page)).resolves.toEqual([]);
    await page.close();
  });

  it('greets a person at / with the reference, the guide and the console, accessibly and from payhook alone', async () => {
    const page = await browser.newPage({ viewport: { width: 360, height: 740 } });
    const hosts = new Set<string>();
    page.on('request', (request) => hosts.add(new URL(request.url()).host));
    const response = await page.goto(`${api.baseUrl}/`);
    expect(response?.status()).toBe(200);
    for (const name of ['API reference', 'Merchant guide', 'Merchant console']) {
      await expect(page.getByRole('link', { name }).isVisible()).resolves.toBe(true);
    }
    await expect(accessibilityViolations(page)).resolves.toEqual([]);
    await Promise.all([
      page.waitForURL(`${api.baseUrl}/docs`),
      page.getByRole('link', { name: 'API reference' }).click(),
    ]);
    expect([...hosts]).toEqual([new URL(api.baseUrl).host]);
    await page.close();
  });
});
