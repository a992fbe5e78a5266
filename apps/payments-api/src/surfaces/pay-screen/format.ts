import { formatClockInZone } from '../../platform/time/zoned-time';

/** Every third digit from the right that has a digit before it: where a thousands separator goes. */
const THOUSANDS = /\B(?=(\d{3})+(?!\d))/g;

/**
 * `₩15,000`: whole won with thousands separators, the same in every language. Grouped by hand: a
 * won amount is an integer, and Intl.NumberFormat's format() costs about three times as much on every page.
 */
export function formatWon(amount: number): string {
  return `₩${String(amount).replace(THOUSANDS, ',')}`;
}

/** returnUrl with paymentId, orderId and status set, keeping every parameter the merchant put there. */
export function returnUrlWith(returnUrl: string, payment: { id: string; orderId: string; status: string }): string {
  const url = new URL(returnUrl);
  url.searchParams.set('paymentId', payment.id);
  url.searchParams.set('orderId', payment.orderId);
  url.searchParams.set('status', payment.status);
  return url.toString();
}

/** Escrow days and times are Korean: the auto-confirm day is counted on the Korean calendar. */
const KOREAN_TIME = 'Asia/Seoul';

const koreanDays = new Map<string, Intl.DateTimeFormat>();

/** `2026년 12월 8일` / `December 8, 2026`: the day of an instant in Korea, in a language. */
export function formatKoreanDay(date: Date, locale: string): string {
  let formatter = koreanDays.get(locale);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat(locale, {
      timeZone: KOREAN_TIME,
      year: 'numeric',
      month: 'long',
      day: 'numeric',
    });
    koreanDays.set(locale, formatter);
  }
  return formatter.format(date);
}

/** `14:05`: the time of day of an instant in Korea, 24-hour. */
export function formatKoreanClock(date: Date): string {
  return formatClockInZone(date, KOREAN_TIME);
}
