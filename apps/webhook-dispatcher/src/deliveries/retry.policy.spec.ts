import { jitter, maxAttempts, nextRetryDelayMs } from './retry.policy';

describe('retry policy', () => {
  const schedule = [5_000, 300_000, 1_800_000];
  const low = () => 0;
  const mid = () => 0.5;
  const high = () => 0.999_999_9;

  it('counts the first attempt plus one per schedule entry', () => {
    expect(maxAttempts(schedule)).toBe(4);
    expect(maxAttempts([])).toBe(1);
  });

  it('waits schedule[k-1] after attempt k, exactly at the middle of the jitter', () => {
    expect(nextRetryDelayMs(schedule, 1, mid)).toBe(5_000);
    expect(nextRetryDelayMs(schedule, 2, mid)).toBe(300_000);
    expect(nextRetryDelayMs(schedule, 3, mid)).toBe(1_800_000);
  });

  it('stays within ±10%', () => {
    expect(nextRetryDelayMs(schedule, 1, low)).toBe(4_500);
    expect(nextRetryDelayMs(schedule, 1, high)).toBe(5_500);
    expect(nextRetryDelayMs(schedule, 3, low)).toBe(1_620_000);
    expect(nextRetryDelayMs(schedule, 3, high)).toBeLessThanOrEqual(1_980_000);
    expect(nextRetryDelayMs(schedule, 3, high)).toBeGreaterThan(1_979_000);
    for (let i = 0; i < 1_000; i++) {
      const delay = nextRetryDelayMs(schedule, 2) ?? -1;
      expect(delay).toBeGreaterThanOrEqual(270_000);
      expect(delay).toBeLessThanOrEqual(330_000);
    }
  });

  it('rounds to whole milliseconds', () => {
    expect(jitter(333, () => 0.123)).toBe(Math.round(333 * (0.9 + 0.2 * 0.123)));
    expect(Number.isInteger(jitter(7, () => 0.37))).toBe(true);
  });

  it('returns null once no attempt is left', () => {
    expect(nextRetryDelayMs(schedule, 4, mid)).toBeNull();
    expect(nextRetryDelayMs(schedule, 10, mid)).toBeNull();
    expect(nextRetryDelayMs([], 1, mid)).toBeNull();
  });

  it('rejects attempt numbers below 1', () => {
    expect(() => nextRetryDelayMs(schedule, 0)).toThrow(RangeError);
    expect(() => nextRetryDelayMs(schedule, 1.5)).toThrow(RangeError);
  });
});
