import * as gazette from '@hyunbinseo/holidays-kr/all';

/**
 * Which calendar dated a payout: `kr_public_holidays` when every day it walked over lies in a year
 * whose Korean public holidays are known (the gazette data of @hyunbinseo/holidays-kr, ADR 0010),
 * `weekdays_only` when a day lay in a year not published yet, where only weekends and the days an
 * operator added were skipped. Never a silent guess: the settlement says which.
 */
export type PayoutRule = 'kr_public_holidays' | 'weekdays_only';

export interface Holiday {
  date: string;
  name: string;
}

/** `YYYY-MM-DD` → names, per year the package knows (2018 to its newest). */
const PUBLIC_HOLIDAYS: ReadonlyMap<string, Readonly<Record<string, readonly string[]>>> = new Map(
  Object.entries(gazette).map(([key, days]) => [key.slice(1), days as Readonly<Record<string, readonly string[]>>]),
);

/** The Korean public holidays of `year` (substitute and election days included), or null when not known. */
export function publicHolidays(year: number): Holiday[] | null {
  const days = PUBLIC_HOLIDAYS.get(String(year));
  if (!days) return null;
  return Object.entries(days).map(([date, names]) => ({ date, name: names.join(', ') }));
}

/**
 * The `days`-th banking day after `date` (`YYYY-MM-DD`): not a Saturday or Sunday, not a Korean
 * public holiday, not one of `extraDays` (non-banking days an operator added). `unknownYears` gets
 * every year the walk passed whose public holidays are not known.
 */
export function addBusinessDays(
  date: string,
  days: number,
  extraDays: ReadonlySet<string> = new Set(),
): { date: string; rule: PayoutRule; unknownYears: number[] } {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) throw new RangeError(`not a date: ${date}`);
  if (!Number.isInteger(days) || days < 0) throw new RangeError('days must be a whole number of 0 or more');
  const day = new Date(`${date}T00:00:00Z`);
  const unknownYears = new Set<number>();
  let left = days;
  while (left > 0) {
    day.setUTCDate(day.getUTCDate() + 1);
    const iso = day.toISOString().slice(0, 10);
    const year = PUBLIC_HOLIDAYS.get(iso.slice(0, 4));
    if (!year) unknownYears.add(day.getUTCFullYear());
    const weekday = day.getUTCDay();
    if (weekday !== 0 && weekday !== 6 && !(year && iso in year) && !extraDays.has(iso)) left--;
  }
  return {
    date: day.toISOString().slice(0, 10),
    rule: unknownYears.size === 0 ? 'kr_public_holidays' : 'weekdays_only',
    unknownYears: [...unknownYears],
  };
}
