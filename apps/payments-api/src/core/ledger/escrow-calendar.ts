import { addBusinessDays } from './business-days';
import { salesDate } from './settlement-calculation';

/**
 * When a shipped escrow confirms by itself: 00:00 Asia/Seoul of the `days`-th business day after the
 * shipment's date in Asia/Seoul (the payout calendar: weekends, Korean public holidays and the
 * operator's non-banking days `extraDays` are skipped), or of the shipment's date itself for 0 days.
 */
export function escrowAutoConfirmAt(shippedAt: Date, days: number, extraDays: ReadonlySet<string>): Date {
  const day = addBusinessDays(salesDate(shippedAt), days, extraDays).date;
  // Korea keeps no daylight saving time: its midnight is always 15:00 UTC of the day before.
  return new Date(`${day}T00:00:00+09:00`);
}
