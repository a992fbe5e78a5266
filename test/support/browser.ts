import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { required, TEST_ENV_KEYS } from './test-env';

/** Debian's Chromium; .ci/run installs it when it is missing (Playwright's own download cannot work here). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'];

/**
 * The browser run's one Chromium (test/support/browser-setup.ts launches it); close() lets go of it
 * and of the pages this spec opened, and leaves it running for the others.
 */
export function connectChromium(): Promise<Browser> {
  return chromium.connect(required(TEST_ENV_KEYS.browserWsEndpoint));
}

/** Screenshots and other files a person may want to look at after a run (not committed). */
export function artifactPath(name: string): string {
  const dir = join(__dirname, '../../test-artifacts');
  mkdirSync(dir, { recursive: true });
  return join(dir, name);
}

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const WCAG_21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/**
 * The page's WCAG 2.1 AA violations found by axe-core, one line each (rule, help, where). axe is
 * evaluated through DevTools, which the page's strict CSP does not govern, so the CSP stays on.
 */
export async function accessibilityViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const result = await page.evaluate<AxeResult>(
    `axe.run(document, { runOnly: { type: 'tag', values: ${JSON.stringify(WCAG_21_AA)} } })`,
  );
  return result.violations.map(
    (violation) =>
      `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join('; ')})`,
  );
}

/** No sideways scrolling at `width`, and no WCAG 2.1 AA violation; `name` says which page failed. */
export async function expectClean(page: Page, name: string, width: number): Promise<void> {
  const scrollWidth = await page.evaluate<number>('document.documentElement.scrollWidth');
  // When the page scrolls sideways, what reaches past the right edge, so that a failure says where to look.
  const sticksOut =
    scrollWidth <= width
      ? []
      : await page.evaluate<string[]>(
          `[...document.querySelectorAll('body *')]
            .filter((element) => element.getBoundingClientRect().right > ${width} + 0.5)
            .map((element) => element.tagName.toLowerCase() + ' ' + (element.textContent ?? '').trim().slice(0, 40))`,
        );
  expect({ name, scrollWidth, sticksOut }).toEqual({ name, scrollWidth: Math.min(scrollWidth, width), sticksOut: [] });
  await expect(accessibilityViolations(page).then((found) => ({ name, found }))).resolves.toEqual({ name, found: [] });
}

interface AxeResult {
  violations: { id: string; help: string; nodes: { target: string[] }[] }[];
}
