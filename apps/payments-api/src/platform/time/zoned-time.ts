/**
 * Times in the merchant's time zone, always with the zone named: `2026-11-21 14:05:09 KST`.
 *
 * Intl names the zone (timeZoneName 'short'), but for many zones ICU's English data has no
 * abbreviation and prints an offset such as `GMT+9`. Only then, and only for the common zones
 * below, is the offset replaced by the conventional abbreviation; any other zone keeps the offset
 * Intl printed, which still names the instant exactly.
 */
const ABBREVIATIONS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  'Asia/Seoul': { 'GMT+9': 'KST' },
  'Asia/Tokyo': { 'GMT+9': 'JST' },
  'Asia/Hong_Kong': { 'GMT+8': 'HKT' },
  'Asia/Singapore': { 'GMT+8': 'SGT' },
  'Asia/Kolkata': { 'GMT+5:30': 'IST' },
  'Europe/London': { 'GMT+1': 'BST' },
  'Europe/Berlin': { 'GMT+1': 'CET', 'GMT+2': 'CEST' },
  'Europe/Paris': { 'GMT+1': 'CET', 'GMT+2': 'CEST' },
  'Europe/Amsterdam': { 'GMT+1': 'CET', 'GMT+2': 'CEST' },
  'Europe/Madrid': { 'GMT+1': 'CET', 'GMT+2': 'CEST' },
  'Europe/Rome': { 'GMT+1': 'CET', 'GMT+2': 'CEST' },
  'Australia/Sydney': { 'GMT+10': 'AEST', 'GMT+11': 'AEDT' },
  'Australia/Melbourne': { 'GMT+10': 'AEST', 'GMT+11': 'AEDT' },
  'Pacific/Auckland': { 'GMT+12': 'NZST', 'GMT+13': 'NZDT' },
};

const formatters = new Map<string, Intl.DateTimeFormat>();

/** Formatting is the costly part of Intl; one formatter per zone serves every request. */
function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      timeZoneName: 'short',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

interface LocalParts {
  year: string;
  month: string;
  day: string;
  hour: string;
  minute: string;
  second: string;
  timeZoneName: string;
}

function localParts(instant: number, timeZone: string): LocalParts {
  const parts: Record<string, string> = {};
  for (const part of formatterFor(timeZone).formatToParts(instant)) parts[part.type] = part.value;
  return parts as unknown as LocalParts;
}

/** The zone's name at that instant: Intl's abbreviation, a conventional one for a bare offset, or the offset. */
export function zoneAbbreviation(timeZone: string, printed: string): string {
  if (!/^GMT[+-]/.test(printed)) return printed;
  return ABBREVIATIONS[timeZone]?.[printed] ?? printed;
}

/** `PST`, `KST`, `GMT+4`: the zone's short name at that instant (summer time included). */
export function zoneNameAt(date: Date, timeZone: string): string {
  return zoneAbbreviation(timeZone, localParts(date.getTime(), timeZone).timeZoneName);
}

/** `2026-03-08 15:30:00 KST`. */
export function formatInZone(date: Date, timeZone: string): string {
  const p = localParts(date.getTime(), timeZone);
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second} ${zoneAbbreviation(timeZone, p.timeZoneName)}`;
}

const HOUR_MS = 3_600_000;
/** Hours of each zone's offsets kept: the hours of the deadlines and "now"s pages show lately. */
const HOURS_KEPT_PER_ZONE = 256;
/** Per zone, by UTC hour, the offset in force through that whole hour, or NaN for an hour the offset changes in. */
const hourOffsets = new Map<string, Map<number, number>>();

/**
 * The zone's offset at the instant, from Intl once per zone and UTC hour: an offset the same at both
 * ends of an hour holds through it (a zone changes its offset a few times a year, never twice within
 * an hour). Null in an hour the offset changes in, where only Intl knows the instant's side.
 */
function offsetInHour(instant: number, timeZone: string): number | null {
  let byHour = hourOffsets.get(timeZone);
  if (!byHour) hourOffsets.set(timeZone, (byHour = new Map<number, number>()));
  const hour = Math.floor(instant / HOUR_MS);
  let offset = byHour.get(hour);
  if (offset === undefined) {
    const first = offsetMs(hour * HOUR_MS, timeZone);
    offset = first === offsetMs((hour + 1) * HOUR_MS - 1, timeZone) ? first : Number.NaN;
    if (byHour.size >= HOURS_KEPT_PER_ZONE) byHour.delete(byHour.keys().next().value!);
    byHour.set(hour, offset);
  }
  return Number.isNaN(offset) ? null : offset;
}

const twoDigits = (value: number) => (value < 10 ? `0${value}` : String(value));

/**
 * The day and the time of day of an instant in the zone, for a page: its deadline is rendered on
 * every view. Arithmetic on the hour's offset (offsetInHour); Intl's parts in the hour of a change.
 */
function wallClock(instant: number, timeZone: string): { day: string; clock: string } {
  const offset = offsetInHour(instant, timeZone);
  if (offset === null) {
    const p = localParts(instant, timeZone);
    return { day: `${p.year}-${p.month}-${p.day}`, clock: `${p.hour}:${p.minute}` };
  }
  const wall = new Date(instant + offset);
  return {
    day: `${wall.getUTCFullYear()}-${twoDigits(wall.getUTCMonth() + 1)}-${twoDigits(wall.getUTCDate())}`,
    clock: `${twoDigits(wall.getUTCHours())}:${twoDigits(wall.getUTCMinutes())}`,
  };
}

/** `2026-03-08`: the calendar day of an instant in the zone. */
export function dayInZone(date: Date | number, timeZone: string): string {
  return wallClock(typeof date === 'number' ? date : date.getTime(), timeZone).day;
}

/** How far the zone's wall clock is ahead of UTC at that instant, in ms. */
function offsetMs(instant: number, timeZone: string): number {
  const p = localParts(instant, timeZone);
  const wall = Date.UTC(+p.year, +p.month - 1, +p.day, +p.hour, +p.minute, +p.second);
  return wall - (instant - (((instant % 1000) + 1000) % 1000));
}

const DAY_MS = 86_400_000;

/**
 * The first instant of a calendar day (`YYYY-MM-DD`) in the zone: its midnight, or where a DST
 * change skips midnight, the moment the day begins. Each offset in force around that day gives one
 * candidate; the earliest that already falls on the day is the answer.
 */
export function startOfDayInZone(day: string, timeZone: string): Date {
  const [year, month, date] = day.split('-').map(Number);
  const wallMidnight = Date.UTC(year, month - 1, date);
  const candidates = [-DAY_MS, 0, DAY_MS].map((shift) => wallMidnight - offsetMs(wallMidnight + shift, timeZone));
  const onTheDay = candidates.filter((candidate) => dayInZone(candidate, timeZone) >= day);
  return new Date(Math.min(...(onTheDay.length > 0 ? onTheDay : candidates)));
}

/** The day after `YYYY-MM-DD`, as `YYYY-MM-DD` (calendar arithmetic, no zone involved). */
export function nextDay(day: string): string {
  const [year, month, date] = day.split('-').map(Number);
  return new Date(Date.UTC(year, month - 1, date + 1)).toISOString().slice(0, 10);
}

/** The day (`2026-11-21`) and the time (`23:22`) of an instant in the zone, read once. */
export function wallClockInZone(date: Date, timeZone: string): { day: string; clock: string } {
  return wallClock(date.getTime(), timeZone);
}

/** `23:22`: the wall-clock time of an instant in the zone, 24-hour (a deadline on a page). */
export function formatClockInZone(date: Date, timeZone: string): string {
  return wallClock(date.getTime(), timeZone).clock;
}

const monthDayFormatters = new Map<string, Intl.DateTimeFormat>();

/** `11월 30일` / `November 30`: the calendar day of an instant in the zone, in a language. */
export function formatMonthDayInZone(date: Date, timeZone: string, locale: string): string {
  const key = `${locale} ${timeZone}`;
  let formatter = monthDayFormatters.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat(locale, { timeZone, month: 'long', day: 'numeric' });
    monthDayFormatters.set(key, formatter);
  }
  return formatter.format(date);
}
