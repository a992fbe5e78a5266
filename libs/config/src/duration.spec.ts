import { parseDuration, parseDurationList } from './duration';

describe('durations', () => {
  it('parses the default retry schedule', () => {
    expect(parseDurationList('5s,5m,30m,2h,5h,10h,10h')).toEqual([
      5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000,
    ]);
  });

  it.each(['', '5', '5x', '-5s', '0s', '1.5s', '5s,,5m', 's'])('rejects %p', (text) => {
    expect(parseDurationList(text)).toBeNull();
  });

  it('accepts milliseconds and days', () => {
    expect(parseDuration('250ms')).toBe(250);
    expect(parseDuration('1d')).toBe(86_400_000);
  });
});
