import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium; .ci/run installs it when it is missing (Playwright's own download cannot work here). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}

/** Screenshots and other files a person may want to look at after a run (not committed). */
export function artifactPath(name: string): string {
  const dir = join(__dirname, '../../test-artifacts');
  mkdirSync(dir, { recursive: true });
  return join(dir, name);
}
