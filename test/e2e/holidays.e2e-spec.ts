import { addBusinessDays } from '../../apps/payments-api/src/core/ledger/business-days';
import { salesDate } from '../../apps/payments-api/src/core/ledger/settlement-calculation';
import { expectApiError } from '../support/api-expectations';
import { isolatedServices, type IsolatedServices } from '../support/isolated-services';
import { PaymentsApiHarness, type TestMerchant } from '../support/payments-api.harness';
import { createPayment } from '../support/webhook-scenario';

/**
 * Payouts skip weekends, Korean public holidays and the days an
 * operator adds. A database of its own: an added day changes every merchant's payout dates.
 */
describe('non-banking days: /admin/v1/holidays and payout dates', () => {
  let services: IsolatedServices;
  let api: PaymentsApiHarness;
  let merchant: TestMerchant;

  beforeAll(async () => {
    services = await isolatedServices('holidays');
    api = await PaymentsApiHarness.start(services.env);
    merchant = await api.merchantWithKey('test');
  });
  afterAll(async () => {
    await api.stop();
    await services.drop();
  });

  const list = (query = '') => api.admin().get(`/admin/v1/holidays${query}`);
  const add = (body: object) => api.admin().post('/admin/v1/holidays').send(body);

  it('lists a year with Chuseok and Seollal in full, substitute days and the election day, by date', async () => {
    const { body } = await list('?year=2026').expect(200);
    const days = body.data as { date: string; name: string }[];
    expect(days.map((day) => day.date)).toEqual([...days.map((day) => day.date)].sort());
    expect(days).toEqual(
      expect.arrayContaining([
        { date: '2026-02-16', name: '설날 전날' },
        { date: '2026-02-17', name: '설날' },
        { date: '2026-02-18', name: '설날 다음 날' },
        { date: '2026-06-03', name: '전국동시지방선거' },
        { date: '2026-09-24', name: '추석 전날' },
        { date: '2026-09-25', name: '추석' },
        { date: '2026-09-26', name: '추석 다음 날' },
        { date: '2026-10-05', name: '대체공휴일(개천절)' },
      ]),
    );
  });

  it('lists the current year in Asia/Seoul when no year is given', async () => {
    const year = salesDate(new Date()).slice(0, 4);
    const [current, explicit] = await Promise.all([list().expect(200), list(`?year=${year}`).expect(200)]);
    expect(current.body).toEqual(explicit.body);
  });

  it('adds a one-off non-banking day (201), renames it when added again, and lists it with its year', async () => {
    expect((await add({ date: '2028-03-10', name: 'Bank system migration' }).expect(201)).body).toEqual({
      data: { date: '2028-03-10', name: 'Bank system migration' },
    });
    await add({ date: '2028-03-10', name: 'Bank system migration (moved)' }).expect(201);
    // 2028 has no gazette data yet: only the added day is listed.
    expect((await list('?year=2028').expect(200)).body).toEqual({
      data: [{ date: '2028-03-10', name: 'Bank system migration (moved)' }],
    });
  });

  it.each([
    [{ date: '2026-02-30', name: 'x' }, 'parameter_invalid', 'date'],
    [{ date: '2026-9-1', name: 'x' }, 'parameter_invalid', 'date'],
    [{ date: 20261002, name: 'x' }, 'parameter_invalid', 'date'],
    [{ name: 'x' }, 'parameter_missing', 'date'],
    [{ date: '2026-10-02' }, 'parameter_missing', 'name'],
    [{ date: '2026-10-02', name: '' }, 'parameter_invalid', 'name'],
  ])('refuses %j with 400 %s on %s, and adds nothing', async (body, code, param) => {
    expectApiError(await add(body), { status: 400, code, param });
    expect((await list('?year=2026').expect(200)).body.data).not.toContainEqual(
      expect.objectContaining({ date: '2026-10-02' }),
    );
  });

  it('refuses a year that is not one with 400 parameter_invalid on year, and a wrong token with 401', async () => {
    for (const year of ['26', 'abcd', '0001', '2026-01']) {
      expectApiError(await list(`?year=${year}`), { status: 400, code: 'parameter_invalid', param: 'year' });
    }
    await api.http().get('/admin/v1/holidays').set('Authorization', 'Bearer wrong').expect(401);
  });

  it('dates a payment settled after an added day past it, and leaves earlier settlements as they were', async () => {
    const settlementOf = async (paymentId: string) => {
      await api.as(merchant).post(`/v1/test-helpers/payments/${paymentId}/complete`).expect(200);
      const { body } = await api.as(merchant).get('/v1/settlements?limit=100').expect(200);
      return (body.data as { paymentId: string; salesDate: string; payoutDate: string; payoutRule: string }[]).find(
        (row) => row.paymentId === paymentId,
      )!;
    };
    const before = await settlementOf(await createPayment(api, merchant));
    expect(before.payoutRule).toBe('kr_public_holidays');
    expect(before.payoutDate).toBe(addBusinessDays(before.salesDate, 2).date);

    await add({ date: before.payoutDate, name: 'Bank holiday' }).expect(201);
    const after = await settlementOf(await createPayment(api, merchant));
    expect(after.salesDate).toBe(before.salesDate);
    expect(after.payoutDate).toBe(addBusinessDays(after.salesDate, 2, new Set([before.payoutDate])).date);
    expect(after.payoutDate > before.payoutDate).toBe(true);
    const again = (await api.as(merchant).get('/v1/settlements?limit=100').expect(200)).body.data.find(
      (row: { paymentId: string }) => row.paymentId === before.paymentId,
    );
    expect(again.payoutDate).toBe(before.payoutDate);
  });
});
