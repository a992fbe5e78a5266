import { Transform } from 'class-transformer';

/**
 * Env values arrive as strings. A value that does not parse becomes NaN or a marker the
 * validators reject, so a typo stops the process instead of turning into a default.
 */
export const ToInteger = () =>
  Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value === undefined ? value : NaN,
  );

export const ToBoolean = () =>
  Transform(({ value }: { value: unknown }) => {
    if (typeof value !== 'string') return value;
    const normalized = value.trim().toLowerCase();
    if (['true', '1', 'yes'].includes(normalized)) return true;
    if (['false', '0', 'no'].includes(normalized)) return false;
    return value;
  });
