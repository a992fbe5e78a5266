import fc from 'fast-check';
import { addBusinessDays, publicHolidays } from './business-days';

/** Real Korean dates. */
describe('addBusinessDays', () => {
  const payout = (date: string, days: number, extra: string[] = []) => addBusinessDays(date, days, new Set(extra));

  it('skips Chuseok 2026 (Sep 24-26) and the weekend after it', () => {
    expect(payout('2026-09-23', 1)).toEqual({ date: '2026-09-28', rule: 'kr_public_holidays', unknownYears: [] });
    expect(payout('2026-09-23', 2).date).toBe('2026-09-29');
  });

  it('skips Seollal 2027 (Feb 6-8) and its substitute day Feb 9 after a weekend', () => {
    expect(payout('2027-02-05', 1).date).toBe('2027-02-10');
  });

  it('skips the 2026-06-03 local election day', () => {
    expect(payout('2026-06-02', 1).date).toBe('2026-06-04');
  });

  it('skips weekends as before on ordinary weeks', () => {
    expect(payout('2026-11-20', 2).date).toBe('2026-11-24');
    expect(payout('2026-11-24', 0).date).toBe('2026-11-24');
  });

  it('skips a non-banking day an operator added', () => {
    expect(payout('2026-06-02', 1, ['2026-06-04']).date).toBe('2026-06-05');
  });

  it('says so when it walks into a year whose public holidays are not published yet', () => {
    expect(payout('2027-12-30', 2)).toEqual({ date: '2028-01-03', rule: 'weekdays_only', unknownYears: [2028] });
  });

  it.each([
    ['2026-11-16', 2, '2026-11-18'], // Monday → Wednesday
    ['2026-11-19', 2, '2026-11-23'], // Thursday → Monday, over the weekend
    ['2026-11-21', 1, '2026-11-23'], // a Saturday sale pays the next Monday
    ['2026-11-30', 2, '2026-12-02'], // across a month end
    ['2026-12-31', 1, '2027-01-04'], // New Year's Day (a Friday), then the weekend
    ['2026-02-27', 1, '2026-03-03'], // the weekend, then the substitute day for 3·1절 (Mon 03-02)
    ['2028-02-28', 1, '2028-02-29'], // leap day, in a year not published yet
  ])('%s + %i banking days = %s', (date, days, expected) => {
    expect(payout(date, days).date).toBe(expected);
  });

  it('never lands on a weekend or a known holiday, and counts exactly the banking days in between', () => {
    const holidays = new Set(
      [2024, 2025, 2026, 2027].flatMap((year) => publicHolidays(year)!.map((holiday) => holiday.date)),
    );
    const banking = (day: Date) => ![0, 6].includes(day.getUTCDay()) && !holidays.has(day.toISOString().slice(0, 10));
    fc.assert(
      fc.property(
        fc.date({ min: new Date('2024-01-01T00:00:00Z'), max: new Date('2027-10-31T00:00:00Z'), noInvalidDate: true }),
        fc.integer({ min: 1, max: 30 }),
        (start, days) => {
          const from = start.toISOString().slice(0, 10);
          const result = payout(from, days);
          expect(result.rule).toBe('kr_public_holidays');
          expect(banking(new Date(`${result.date}T00:00:00Z`))).toBe(true);
          let counted = 0;
          for (let day = new Date(`${from}T00:00:00Z`); day.toISOString().slice(0, 10) < result.date;) {
            day.setUTCDate(day.getUTCDate() + 1);
            if (banking(day)) counted++;
          }
          expect(counted).toBe(days);
        },
      ),
      { numRuns: 1_000 },
    );
  });

  it('refuses what is not a date or a day count', () => {
    expect(() => payout('2026-9-1', 1)).toThrow(RangeError);
    expect(() => payout('2026-09-01', -1)).toThrow(RangeError);
  });
});

describe('publicHolidays', () => {
  it('lists all three days of Chuseok and Seollal, substitutes and the election day for 2026', () => {
    const dates = publicHolidays(2026)!.map((holiday) => holiday.date);
    expect(dates).toEqual(expect.arrayContaining(['2026-02-16', '2026-02-17', '2026-02-18', '2026-06-03']));
    expect(dates).toEqual(expect.arrayContaining(['2026-09-24', '2026-09-25', '2026-09-26', '2026-10-05']));
  });

  it('knows no year it has no gazette for', () => {
    expect(publicHolidays(2028)).toBeNull();
  });
});
