import { PAYMENT_STATUSES } from '@payhook/contracts';
import { CUSTOMER_ID_MAX_CHARS, ListPaymentsQueryDto, ORDER_ID_MAX_CHARS } from '../../../money/payments';
import { dtoViolations } from '../../../platform/http/dto-violations';
import { nextDay, startOfDayInZone } from '../../../platform/time/zoned-time';
import type { ConsolePaymentsT } from './messages';

export const CONSOLE_PAGE_SIZE = 25;

/** The filter form's fields as typed, echoed back into the form. */
export interface PaymentFilterValues {
  status: string;
  orderId: string;
  customerId: string;
  createdFrom: string;
  createdTo: string;
}

export interface ParsedPaymentFilters {
  values: PaymentFilterValues;
  /** The same query the API takes, so the console follows the API's list rules. */
  query: ListPaymentsQueryDto;
  error: string | null;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

function isRealDay(day: string): boolean {
  if (!DAY.test(day)) return false;
  const [year, month, date] = day.split('-').map(Number);
  if (year < 1970 || year > 9998) return false;
  const probe = new Date(Date.UTC(year, month - 1, date));
  return probe.getUTCFullYear() === year && probe.getUTCMonth() === month - 1 && probe.getUTCDate() === date;
}

/**
 * The payments page's query → the API list query. Dates are calendar days in the merchant's zone:
 * `createdFrom` starts at that day's first instant, and `createdTo` includes its whole day (the API's
 * createdTo is exclusive, so it becomes the start of the next day). A refusal is in `t`'s language.
 */
export function parsePaymentFilters(
  raw: Record<string, unknown>,
  timeZone: string,
  t: ConsolePaymentsT,
): ParsedPaymentFilters {
  const values: PaymentFilterValues = {
    status: text(raw.status),
    orderId: text(raw.orderId),
    customerId: text(raw.customerId),
    createdFrom: text(raw.createdFrom),
    createdTo: text(raw.createdTo),
  };
  const cursor = text(raw.cursor);
  const query: ListPaymentsQueryDto = { limit: String(CONSOLE_PAGE_SIZE) };
  const fail = (error: string): ParsedPaymentFilters => ({ values, query, error });
  // The API's own query rules (an empty field is left out); the days are the console's, not instants.
  const broken = dtoViolations(ListPaymentsQueryDto, {
    orderId: values.orderId || undefined,
    customerId: values.customerId || undefined,
    cursor: cursor || undefined,
  });

  if (values.status !== '') {
    if (!(PAYMENT_STATUSES as readonly string[]).includes(values.status)) return fail(t('filters.status'));
    query.status = values.status;
  }
  if (values.orderId !== '') {
    if (broken.has('orderId')) return fail(t('filters.orderId', { max: ORDER_ID_MAX_CHARS }));
    query.orderId = values.orderId;
  }
  if (values.customerId !== '') {
    if (broken.has('customerId')) return fail(t('filters.customerId', { max: CUSTOMER_ID_MAX_CHARS }));
    query.customerId = values.customerId;
  }
  if (values.createdFrom !== '') {
    if (!isRealDay(values.createdFrom)) return fail(t('filters.from'));
    query.createdFrom = startOfDayInZone(values.createdFrom, timeZone).toISOString();
  }
  if (values.createdTo !== '') {
    if (!isRealDay(values.createdTo)) return fail(t('filters.to'));
    query.createdTo = startOfDayInZone(nextDay(values.createdTo), timeZone).toISOString();
  }
  if (values.createdFrom !== '' && values.createdTo !== '' && values.createdFrom > values.createdTo) {
    return fail(t('filters.fromAfterTo'));
  }
  if (cursor !== '') {
    if (broken.has('cursor')) return fail(t('filters.cursor'));
    query.cursor = cursor;
  }
  return { values, query, error: null };
}

/** The payments page's address for these filters, mode and (optionally) page position. */
export function paymentsHref(mode: string, values: PaymentFilterValues, cursor?: string): string {
  const params = new URLSearchParams({ mode });
  for (const [key, value] of Object.entries(values) as [string, string][]) if (value !== '') params.set(key, value);
  if (cursor) params.set('cursor', cursor);
  return `/console/payments?${params.toString()}`;
}
