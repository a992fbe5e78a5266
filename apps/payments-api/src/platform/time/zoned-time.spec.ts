import { dayInZone, formatInZone, nextDay, startOfDayInZone, wallClockInZone, zoneAbbreviation } from './zoned-time';

describe('zoned time', () => {
  it.each([
    ['2026-03-08T06:30:00Z', 'Asia/Seoul', '2026-03-08 15:30:00 KST'],
    ['2026-03-08T07:30:00Z', 'Asia/Seoul', '2026-03-08 16:30:00 KST'],
    // Across the US change to daylight time at 02:00 local on 2026-03-08.
    ['2026-03-08T06:30:00Z', 'America/New_York', '2026-03-08 01:30:00 EST'],
    ['2026-03-08T07:30:00Z', 'America/New_York', '2026-03-08 03:30:00 EDT'],
    ['2026-11-21T05:05:09.999Z', 'Asia/Seoul', '2026-11-21 14:05:09 KST'],
    ['2026-07-01T12:00:00Z', 'Europe/Berlin', '2026-07-01 14:00:00 CEST'],
    ['2026-01-01T00:00:00Z', 'UTC', '2026-01-01 00:00:00 UTC'],
    ['2026-01-01T00:00:00Z', 'Asia/Kathmandu', '2026-01-01 05:45:00 GMT+5:45'],
  ])('shows %s in %s as %s', (instant, zone, text) => {
    expect(formatInZone(new Date(instant), zone)).toBe(text);
  });

  it('keeps what Intl names and maps only bare offsets of known zones', () => {
    expect(zoneAbbreviation('America/New_York', 'EST')).toBe('EST');
    expect(zoneAbbreviation('Asia/Seoul', 'GMT+9')).toBe('KST');
    expect(zoneAbbreviation('Asia/Seoul', 'GMT+10')).toBe('GMT+10');
    expect(zoneAbbreviation('Asia/Vladivostok', 'GMT+10')).toBe('GMT+10');
  });

  it.each([
    ['2026-03-08', 'Asia/Seoul', '2026-03-07T15:00:00.000Z'],
    ['2026-03-08', 'America/New_York', '2026-03-08T05:00:00.000Z'],
    ['2026-03-09', 'America/New_York', '2026-03-09T04:00:00.000Z'],
    ['2026-11-01', 'America/New_York', '2026-11-01T04:00:00.000Z'],
    ['2026-11-02', 'America/New_York', '2026-11-02T05:00:00.000Z'],
    // Chile moves its clocks at midnight: 2026-09-06 begins at 01:00 local (-03).
    ['2026-09-06', 'America/Santiago', '2026-09-06T04:00:00.000Z'],
    ['2026-01-01', 'UTC', '2026-01-01T00:00:00.000Z'],
  ])('starts %s in %s at %s', (day, zone, instant) => {
    expect(startOfDayInZone(day, zone).toISOString()).toBe(instant);
  });

  it('tells the calendar day in the zone and the next day', () => {
    expect(dayInZone(new Date('2026-03-07T15:00:00Z'), 'Asia/Seoul')).toBe('2026-03-08');
    expect(dayInZone(new Date('2026-03-07T14:59:59Z'), 'Asia/Seoul')).toBe('2026-03-07');
    expect(nextDay('2026-02-28')).toBe('2026-03-01');
    expect(nextDay('2026-12-31')).toBe('2027-01-01');
  });
});

describe('the wall clock of an instant in a zone', () => {
  /** What Intl says, read from its parts: the reference the arithmetic must match to the minute. */
  function intlWallClock(instant: number, timeZone: string): { day: string; clock: string } {
    const parts = Object.fromEntries(
      new Intl.DateTimeFormat('en-US', {
        timeZone,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      })
        .formatToParts(instant)
        .map((part) => [part.type, part.value]),
    );
    return { day: `${parts.year}-${parts.month}-${parts.day}`, clock: `${parts.hour}:${parts.minute}` };
  }

  // Summer time by an hour and by half an hour, offsets of :30 and :45, the southern hemisphere, none.
  const ZONES = [
    'Asia/Seoul',
    'America/New_York',
    'Europe/London',
    'America/St_Johns',
    'Asia/Kathmandu',
    'Pacific/Chatham',
    'Australia/Lord_Howe',
    'Australia/Sydney',
    'UTC',
  ];

  it.each(ZONES)('matches Intl every 7 minutes through each summer-time change of 2026 in %s', (zone) => {
    const start = Date.UTC(2026, 0, 1);
    const end = Date.UTC(2027, 0, 1);
    let changes = 0;
    // Find the hours the offset changes in by stepping a day at a time, then walk those days closely.
    for (let day = start; day < end; day += 86_400_000) {
      const before = intlWallClock(day, zone);
      const after = intlWallClock(day + 86_400_000, zone);
      if (after.clock === before.clock) continue;
      changes++;
      for (let instant = day - 86_400_000; instant < day + 2 * 86_400_000; instant += 7 * 60_000 + 13_000) {
        expect({ instant, ...wallClockInZone(new Date(instant), zone) }).toEqual({
          instant,
          ...intlWallClock(instant, zone),
        });
      }
    }
    expect(changes).toBe(['Asia/Seoul', 'Asia/Kathmandu', 'UTC'].includes(zone) ? 0 : 2);
  });

  it('matches Intl at random instants of the years payments live in', () => {
    let seed = 20261129;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 5_000; i++) {
      const instant = Date.UTC(2020, 0, 1) + Math.floor(random() * 15 * 365 * 86_400_000);
      const zone = ZONES[Math.floor(random() * ZONES.length)];
      expect({ zone, instant, ...wallClockInZone(new Date(instant), zone) }).toEqual({
        zone,
        instant,
        ...intlWallClock(instant, zone),
      });
    }
  });
});
