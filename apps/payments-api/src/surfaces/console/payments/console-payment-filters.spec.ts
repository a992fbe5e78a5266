import { CUSTOMER_ID_MAX_CHARS, ORDER_ID_MAX_CHARS } from '../../../money/payments';
import { paymentsHref, parsePaymentFilters as parseIn } from './console-payment-filters';
import { consolePaymentsT } from './messages';

/** The filters as an English page reads them (the messages are the catalog's). */
const parsePaymentFilters = (raw: Record<string, unknown>, timeZone: string) =>
  parseIn(raw, timeZone, consolePaymentsT('en'));

describe('console payment filters', () => {
  it('turns calendar days in the merchant zone into the API window, the "to" day included', () => {
    const parsed = parsePaymentFilters({ createdFrom: '2026-03-08', createdTo: '2026-03-08' }, 'America/New_York');
    expect(parsed.error).toBeNull();
    expect(parsed.query).toMatchObject({
      createdFrom: '2026-03-08T05:00:00.000Z',
      // The next day starts after the change to daylight time: -04:00.
      createdTo: '2026-03-09T04:00:00.000Z',
    });
    const seoul = parsePaymentFilters({ createdFrom: '2026-03-08' }, 'Asia/Seoul');
    expect(seoul.query.createdFrom).toBe('2026-03-07T15:00:00.000Z');
  });

  it('passes status, order, customer and cursor through with a page size', () => {
    const parsed = parsePaymentFilters(
      { status: 'completed', orderId: ' order-7 ', customerId: '김민수', cursor: 'abc_-1' },
      'Asia/Seoul',
    );
    expect(parsed).toEqual({
      values: { status: 'completed', orderId: 'order-7', customerId: '김민수', createdFrom: '', createdTo: '' },
      query: { limit: '25', status: 'completed', orderId: 'order-7', customerId: '김민수', cursor: 'abc_-1' },
      error: null,
    });
  });

  it('ignores empty fields and values that are not text', () => {
    const parsed = parsePaymentFilters({ status: '', orderId: ['a', 'b'], extra: 'x' }, 'Asia/Seoul');
    expect(parsed).toMatchObject({ error: null, query: { limit: '25' } });
  });

  it.each([
    [{ status: 'paid' }, /status/],
    [{ orderId: 'order 7' }, /order id/],
    [{ customerId: 'a\u0000b' }, /customer id/],
    [{ createdFrom: '2026-02-30' }, /From/],
    [{ createdTo: '21/11/2026' }, /To/],
    [{ createdFrom: '2026-03-09', createdTo: '2026-03-08' }, /not be after/],
    [{ cursor: 'a b' }, /page link/],
  ])('refuses %p', (raw, message) => {
    expect(parsePaymentFilters(raw, 'Asia/Seoul').error).toMatch(message);
  });

  it("refuses at the API list query's own limits, in the page's words", () => {
    const errorOf = (raw: Record<string, string>) => parsePaymentFilters(raw, 'Asia/Seoul').error;
    expect(errorOf({ orderId: 'o'.repeat(ORDER_ID_MAX_CHARS) })).toBeNull();
    expect(errorOf({ orderId: 'o'.repeat(ORDER_ID_MAX_CHARS + 1) })).toBe(
      'An order id is 1 to 64 of A-Z a-z 0-9 _ . : -',
    );
    expect(errorOf({ customerId: 'c'.repeat(CUSTOMER_ID_MAX_CHARS) })).toBeNull();
    for (const customerId of ['c'.repeat(CUSTOMER_ID_MAX_CHARS + 1), 'line\u2028break']) {
      expect(errorOf({ customerId })).toBe('A customer id is 1 to 128 printable characters.');
    }
    expect(errorOf({ cursor: 'c'.repeat(513) })).toMatch(/page link/);
  });

  it("refuses in the page's language", () => {
    const refused = parseIn(
      { createdFrom: '2026-03-09', createdTo: '2026-03-08' },
      'Asia/Seoul',
      consolePaymentsT('ko'),
    );
    expect(refused.error).toBe('시작일이 종료일보다 늦을 수 없습니다.');
  });

  it('builds page links that keep the filters', () => {
    const values = { status: 'failed', orderId: '', customerId: 'a b', createdFrom: '2026-03-01', createdTo: '' };
    expect(paymentsHref('live', values, 'CUR')).toBe(
      '/console/payments?mode=live&status=failed&customerId=a+b&createdFrom=2026-03-01&cursor=CUR',
    );
  });
});
