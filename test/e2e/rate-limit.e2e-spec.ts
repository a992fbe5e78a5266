import { PaymentsApiHarness } from '../support/payments-api.harness';

/** Requests per second per key in this spec. */
const rate = 5;

describe('rate limiting per API key', () => {
  let api: PaymentsApiHarness;

  beforeAll(async () => {
    api = await PaymentsApiHarness.start({ RATE_LIMIT_PER_SECOND: String(rate) });
  });
  afterAll(() => api.stop());

  it('answers 429 rate_limited with Retry-After past a burst of twice the rate, for that key only', async () => {
    const busy = await api.merchantWithKey('test');
    const calm = await api.merchantWithKey('test');
    const get = (i: number) =>
      // Alternating route families: the limit is per key, not per controller.
      api
        .http()
        .get(i % 2 === 0 ? '/v1/payments' : '/v1/events')
        .set('Authorization', `Bearer ${busy.key}`);
    // Waves of parallel requests until one is refused: one at a time, a loaded machine can take
    // longer per request than the bucket takes to refill a token (1/rate s), and never get there.
    const started = Date.now();
    const responses: Awaited<ReturnType<typeof get>>[] = [];
    for (let wave = 0; wave < 20 && !responses.some((response) => response.status === 429); wave++) {
      responses.push(...(await Promise.all(Array.from({ length: 2 * rate }, (_, i) => get(i)))));
    }
    const elapsedSeconds = (Date.now() - started) / 1000;
    const statuses = responses.map((response) => response.status);

    expect(statuses).toContain(429);
    const served = statuses.filter((status) => status === 200).length;
    expect(served + statuses.filter((status) => status === 429).length).toBe(statuses.length);
    // The whole burst is served, and no more than the burst plus what refilled meanwhile.
    expect(served).toBeGreaterThanOrEqual(2 * rate);
    expect(served).toBeLessThanOrEqual(Math.floor(2 * rate + rate * elapsedSeconds));

    // A refused answer of the waves themselves: a request sent now could find a token refilled.
    const limited = responses.find((response) => response.status === 429)!;
    expect(limited.body.error).toMatchObject({ code: 'rate_limited', type: 'rate_limit_error' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(limited.body.error.requestId).toBe(limited.headers['request-id']);

    await api.http().get('/v1/payments').set('Authorization', `Bearer ${calm.key}`).expect(200);
  });
});
