import { chromium, type BrowserServer } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './browser';
import globalSetup from './global-setup';
import { TEST_ENV_KEYS } from './test-env';

declare global {
  var payhookBrowserServer: BrowserServer | undefined;
}

/**
 * One Chromium for the whole browser run: the specs connect to it (connectChromium) and each opens
 * pages of its own; then the services every tier shares.
 */
export default async function browserSetup(): Promise<void> {
  await globalSetup();
  const server = await chromium.launchServer({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  globalThis.payhookBrowserServer = server;
  process.env[TEST_ENV_KEYS.browserWsEndpoint] = server.wsEndpoint();
}
