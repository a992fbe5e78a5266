import type { Response } from 'supertest';
import { expectApiError, ISO_MILLIS_UTC } from '../support/api-expectations';
import { PaymentsApiHarness, type TestMerchant } from '../support/payments-api.harness';
import { completedPayment, createPayment } from '../support/webhook-scenario';

interface ListedEvent {
  id: string;
  type: string;
  createdAt: string;
  data: { paymentId: string };
}

/** GET /v1/events and GET /v1/events/{id}, scoped to the merchant and the key's mode. */
describe('events API', () => {
  let api: PaymentsApiHarness;
  let merchant: TestMerchant;

  beforeAll(async () => {
    api = await PaymentsApiHarness.start();
  });
  afterAll(() => api.stop());
  beforeEach(async () => {
    merchant = await api.merchantWithKey('test');
  });

  const list = (query: Record<string, string> = {}, caller: TestMerchant = merchant) =>
    api.as(caller).get('/v1/events').query(query);

  async function completedEvents(count: number): Promise<{ paymentId: string; eventId: string }[]> {
    const events = [];
    for (let i = 0; i < count; i++) events.push(await completedPayment(api, merchant));
    return events;
  }

  /** List order: createdAt descending, then id descending. */
  const newestFirst = (events: ListedEvent[]) =>
    [...events]
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
      .map((event) => event.id);

  async function pages(limit: string): Promise<{ ids: string[]; hasMore: boolean }[]> {
    const result: { ids: string[]; hasMore: boolean }[] = [];
    let cursor: string | null = null;
    do {
      const page: Response = await list(cursor ? { limit, cursor } : { limit }).expect(200);
      result.push({ ids: page.body.data.map((event: ListedEvent) => event.id), hasMore: page.body.hasMore });
      cursor = page.body.nextCursor;
    } while (cursor !== null && result.length < 10);
    return result;
  }

  it('lists the payment.completed events newest first', async () => {
    const created = await completedEvents(3);

    const listed = await list().expect(200);
    expect(listed.body).toEqual({ data: expect.any(Array), hasMore: false, nextCursor: null });
    const events = listed.body.data as ListedEvent[];
    expect(events.map((event) => event.id).sort()).toEqual(created.map(({ eventId }) => eventId).sort());
    expect(events.map((event) => event.id)).toEqual(newestFirst(events));
    expect(events.map((event) => event.id)).toEqual(created.map(({ eventId }) => eventId).reverse());
    for (const [index, event] of events.entries()) {
      const { paymentId } = created[created.length - 1 - index];
      expect(event).toMatchObject({
        id: expect.stringMatching(/^evt_[0-9A-Za-z]{20,}$/),
        type: 'payment.completed',
        createdAt: expect.stringMatching(ISO_MILLIS_UTC),
        data: { paymentId, amount: 15000, currency: 'KRW', completedAt: event.createdAt },
      });
    }
  });

  it('filters by paymentId and by type', async () => {
    const [first, second] = await completedEvents(2);

    const byPayment = await list({ paymentId: second.paymentId }).expect(200);
    expect(byPayment.body.data.map((event: ListedEvent) => event.id)).toEqual([second.eventId]);
    const byType = await list({ type: 'payment.completed' }).expect(200);
    expect(byType.body.data.map((event: ListedEvent) => event.id)).toEqual([second.eventId, first.eventId]);

    const pending = await createPayment(api, merchant);
    await expect(list({ paymentId: pending })).resolves.toMatchObject({
      status: 200,
      body: { data: [], hasMore: false, nextCursor: null },
    });
  });

  it("does not list another merchant's events, even when filtered by their payment id", async () => {
    const other = await api.merchantWithKey('test');
    const theirs = await completedPayment(api, other);

    await expect(list()).resolves.toMatchObject({ status: 200, body: { data: [] } });
    await expect(list({ paymentId: theirs.paymentId })).resolves.toMatchObject({ status: 200, body: { data: [] } });
  });

  it('pages with limit and cursor through every event exactly once, while new events arrive', async () => {
    const created = await completedEvents(5);
    const all = created.map(({ eventId }) => eventId).reverse();

    const first = await list({ limit: '2' }).expect(200);
    expect(first.body.data.map((event: ListedEvent) => event.id)).toEqual(all.slice(0, 2));
    expect(first.body.hasMore).toBe(true);
    expect(first.body.nextCursor).toEqual(expect.stringMatching(/\S/));

    // A newer event does not shift the pages still to come.
    const newer = await completedPayment(api, merchant);
    const second = await list({ limit: '2', cursor: first.body.nextCursor }).expect(200);
    expect(second.body.data.map((event: ListedEvent) => event.id)).toEqual(all.slice(2, 4));
    expect(second.body.hasMore).toBe(true);
    const third = await list({ limit: '2', cursor: second.body.nextCursor }).expect(200);
    expect(third.body).toMatchObject({ hasMore: false, nextCursor: null });
    expect(third.body.data.map((event: ListedEvent) => event.id)).toEqual(all.slice(4));

    await expect(pages('4')).resolves.toEqual([
      { ids: [newer.eventId, ...all.slice(0, 3)], hasMore: true },
      { ids: all.slice(3), hasMore: false },
    ]);
  });

  it('returns 20 events per page by default', async () => {
    const created = await completedEvents(21);

    const first = await list().expect(200);
    expect(first.body.data.map((event: ListedEvent) => event.id)).toEqual(
      created
        .map(({ eventId }) => eventId)
        .reverse()
        .slice(0, 20),
    );
    expect(first.body.hasMore).toBe(true);
    const rest = await list({ cursor: first.body.nextCursor }).expect(200);
    expect(rest.body).toMatchObject({ data: [{ id: created[0].eventId }], hasMore: false, nextCursor: null });
  });

  it.each(['1', '100'])('accepts limit=%s', async (limit) => {
    await completedEvents(2);
    const listed = await list({ limit }).expect(200);
    expect(listed.body.data).toHaveLength(Math.min(2, Number(limit)));
  });

  it.each(['0', '101', '-1', '1.5', 'ten', ''])('refuses limit=%p with 400 parameter_invalid', async (limit) => {
    expectApiError(await list({ limit }), { status: 400, code: 'parameter_invalid', param: 'limit' });
  });

  it('refuses a forged cursor with 400 parameter_invalid', async () => {
    await completedEvents(3);
    const { nextCursor } = (await list({ limit: '1' }).expect(200)).body;
    const [createdAt] = JSON.parse(Buffer.from(nextCursor as string, 'base64url').toString('utf8')) as [string, string];
    const other = await api.merchantWithKey('test');
    await completedPayment(api, other);
    await completedPayment(api, other);
    const theirCursor = (await list({ limit: '1' }, other).expect(200)).body.nextCursor as string;

    const forged = [
      'not-a-cursor',
      Buffer.from(JSON.stringify([createdAt, 'evt_000000000000000000000000'])).toString('base64url'),
      Buffer.from(JSON.stringify(['yesterday', 'evt_000000000000000000000000'])).toString('base64url'),
      `${nextCursor}x`,
      theirCursor,
    ];
    for (const cursor of forged) {
      expectApiError(await list({ cursor }), { status: 400, code: 'parameter_invalid', param: 'cursor' });
    }
  });

  it('refuses an unknown query parameter with 400 parameter_unknown', async () => {
    expectApiError(await list({ status: 'failed' }), { status: 400, code: 'parameter_unknown', param: 'status' });
  });

  it.each<[string, Record<string, string>]>([
    ['an unknown type', { type: 'payment.refunded' }],
    ['a paymentId that is not a payment id', { paymentId: 'order-1' }],
  ])('refuses %s with 400 parameter_invalid', async (_description, query) => {
    expectApiError(await list(query), { status: 400, code: 'parameter_invalid', param: Object.keys(query)[0] });
  });

  it('shows one event with its delivery status and attempts', async () => {
    const { paymentId, eventId } = await completedPayment(api, merchant);
    const shown = await api.as(merchant).get(`/v1/events/${eventId}`).expect(200);
    expect(shown.body.data).toMatchObject({
      id: eventId,
      type: 'payment.completed',
      createdAt: expect.stringMatching(ISO_MILLIS_UTC),
      data: { paymentId, amount: 15000, currency: 'KRW' },
      deliveryStatus: expect.stringMatching(/^(pending|succeeded|failed)$/),
      attempts: expect.any(Array),
    });
  });

  it("answers 404 resource_not_found for an unknown id and for another merchant's event", async () => {
    const other = await api.merchantWithKey('test');
    const theirs = await completedPayment(api, other);

    for (const id of ['evt_000000000000000000000000', 'not-an-event', theirs.eventId]) {
      expectApiError(await api.as(merchant).get(`/v1/events/${id}`), { status: 404, code: 'resource_not_found' });
    }
  });

  it("keeps a merchant's test and live events apart", async () => {
    const live = await api.merchantWithKey('live', { live: true });
    const test = { ...live, ...(await api.issueKey(live.merchantId, 'test')) };
    const testEvent = await completedPayment(api, test);
    const livePayment = await createPayment(api, live);
    await api.admin().post(`/admin/v1/payments/${livePayment}/confirm-receipt`).expect(200);
    const liveEvents = await list({}, live).expect(200);
    expect(liveEvents.body.data.map((event: ListedEvent) => event.data.paymentId)).toEqual([livePayment]);
    const liveEventId = liveEvents.body.data[0].id as string;

    expectApiError(await api.as(live).get(`/v1/events/${testEvent.eventId}`), {
      status: 404,
      code: 'resource_not_found',
    });
    expectApiError(await api.as(test).get(`/v1/events/${liveEventId}`), { status: 404, code: 'resource_not_found' });
    await expect(list({}, test)).resolves.toMatchObject({ body: { data: [{ id: testEvent.eventId }] } });
    await api.as(live).get(`/v1/events/${liveEventId}`).expect(200);
  });
});
