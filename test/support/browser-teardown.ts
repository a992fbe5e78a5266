import globalTeardown from './global-teardown';

/** Closes the run's Chromium, then what every tier shares. */
export default async function browserTeardown(): Promise<void> {
  await globalThis.payhookBrowserServer?.close();
  globalThis.payhookBrowserServer = undefined;
  await globalTeardown();
}
