import { isCalendarDay, ListSettlementsQueryDto } from '../../../money/settlements';
import { dtoViolations } from '../../../platform/http/dto-violations';
import { CONSOLE_PAGE_SIZE } from '../payments/console-payment-filters';
import type { SettlementsKey } from './messages';

/** The filter form's fields as typed, echoed back into the form. */
export interface SettlementFilterValues {
  date: string;
  from: string;
  to: string;
}

/** Why the filters or the CSV's date were refused: a message of the page's catalog, in the reader's language. */
export type SettlementsError = Extract<SettlementsKey, `error.${string}`>;

export interface ParsedSettlementFilters {
  values: SettlementFilterValues;
  /** The same query the API takes, so the console follows the API's list rules. */
  query: ListSettlementsQueryDto;
  /** The one sales date selected (`date`, or `from` equal to `to`): totals and the CSV are offered for it. */
  day: string | null;
  error: SettlementsError | null;
}

export const NO_SETTLEMENT_FILTERS: SettlementFilterValues = { date: '', from: '', to: '' };

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/**
 * The settlements page's query → the API list query. Every date is a sales date: a calendar day in
 * Asia/Seoul whatever the merchant's zone, as in the API and the CSV, so no zone conversion happens.
 */
export function parseSettlementFilters(raw: Record<string, unknown>): ParsedSettlementFilters {
  const values: SettlementFilterValues = { date: text(raw.date), from: text(raw.from), to: text(raw.to) };
  const query: ListSettlementsQueryDto = { limit: String(CONSOLE_PAGE_SIZE) };
  const fail = (error: SettlementsError): ParsedSettlementFilters => ({ values, query, day: null, error });

  if (values.date !== '') {
    if (values.from !== '' || values.to !== '') return fail('error.dateAndRange');
    if (!isCalendarDay(values.date)) return fail('error.date');
    query.date = values.date;
  }
  if (values.from !== '') {
    if (!isCalendarDay(values.from)) return fail('error.from');
    query.from = values.from;
  }
  if (values.to !== '') {
    if (!isCalendarDay(values.to)) return fail('error.to');
    query.to = values.to;
  }
  if (values.from !== '' && values.to !== '' && values.from > values.to) {
    return fail('error.fromAfterTo');
  }
  const cursor = text(raw.cursor);
  if (cursor !== '') {
    if (dtoViolations(ListSettlementsQueryDto, { cursor }).has('cursor')) return fail('error.badCursor');
    query.cursor = cursor;
  }
  const day = values.date !== '' ? values.date : values.from !== '' && values.from === values.to ? values.from : null;
  return { values, query, day, error: null };
}

/** The CSV export's one required sales date. */
export function parseExportDate(
  raw: Record<string, unknown>,
): { day: string; error: null } | { day: null; error: SettlementsError } {
  const day = text(raw.date);
  if (day === '') return { day: null, error: 'error.exportDate' };
  if (!isCalendarDay(day)) return { day: null, error: 'error.date' };
  return { day, error: null };
}

/** The settlements page's address for these filters, mode and (optionally) page position. */
export function settlementsHref(mode: string, values: SettlementFilterValues, cursor?: string): string {
  const params = new URLSearchParams({ mode });
  for (const [key, value] of Object.entries(values) as [string, string][]) if (value !== '') params.set(key, value);
  if (cursor) params.set('cursor', cursor);
  return `/console/settlements?${params.toString()}`;
}

/** The daily CSV of one sales date in one mode. */
export function settlementsExportHref(mode: string, day: string): string {
  return `/console/settlements/export?${new URLSearchParams({ mode, date: day }).toString()}`;
}
