const UNIT_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const DURATION = /^(\d+)(ms|s|m|h|d)$/;

/** `5s` → 5000. Returns null for anything that is not a positive whole number with a unit. */
export function parseDuration(text: string): number | null {
  const match = DURATION.exec(text.trim());
  if (!match) return null;
  const ms = Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
  return ms > 0 ? ms : null;
}

/** `5s,5m,30m` → [5000, 300000, 1800000]; null when any item is invalid or the list is empty. */
export function parseDurationList(text: string): number[] | null {
  const items = text.split(',').map(parseDuration);
  return items.length > 0 && items.every((ms) => ms !== null) ? items : null;
}
