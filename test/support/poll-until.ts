/**
 * How long an effect may take to show on a shared, busy CI host: a hang detector, not a bound on
 * how fast payhook is (a test that means a bound asserts it on its own measurement).
 */
export const POLL_TIMEOUT_MS = 30_000;

/** Re-reads until `predicate` holds or `timeoutMs` passes; the last value is in the error. */
export async function pollUntil<T>(
  read: () => Promise<T>,
  predicate: (value: T) => boolean,
  { timeoutMs = POLL_TIMEOUT_MS, intervalMs = 50 }: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (predicate(value)) return value;
    if (Date.now() > deadline) {
      throw new Error(`pollUntil timed out after ${timeoutMs} ms; last value: ${JSON.stringify(value)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
