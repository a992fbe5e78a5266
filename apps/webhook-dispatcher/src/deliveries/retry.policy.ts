/**
 * Retry timing for webhook deliveries. Pure: the caller persists the wait (RabbitMQ or
 * Postgres), so a dispatcher restart never loses it.
 */

/** Attempt 1 plus one retry per schedule entry. */
export function maxAttempts(scheduleMs: readonly number[]): number {
  return scheduleMs.length + 1;
}

/** Spreads `delayMs` uniformly over ±10% so endpoints that failed together do not retry together. */
export function jitter(delayMs: number, random: () => number = Math.random): number {
  return Math.max(0, Math.round(delayMs * (0.9 + 0.2 * random())));
}

/**
 * The wait before the next attempt once attempt `attemptsMade` (1-based) has failed, or null when it was the
 * last one.
 */
export function nextRetryDelayMs(
  scheduleMs: readonly number[],
  attemptsMade: number,
  random: () => number = Math.random,
): number | null {
  if (!Number.isInteger(attemptsMade) || attemptsMade < 1) {
    throw new RangeError(`attemptsMade must be a whole number from 1, got ${attemptsMade}`);
  }
  if (attemptsMade > scheduleMs.length) return null;
  return jitter(scheduleMs[attemptsMade - 1], random);
}
