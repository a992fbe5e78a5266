import type { Browser } from 'playwright-core';
import { accessibilityViolations, launchChromium } from '../support/browser';

/** The check every page goes through finds what it should: a guard against a check that passes by not running. */
describe('the accessibility check (axe-core, WCAG 2.1 AA)', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
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
