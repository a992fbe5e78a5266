import { PaymentsApiHarness } from '../support/payments-api.harness';

describe('rate limiting per API key', () => {
  let api: PaymentsApiHarness;

  beforeAll(async () => {
    api = await PaymentsApiHarness.start({ RATE_LIMIT_PER_SECOND: '5' });
  });
  afterAll(() => api.stop());

  it('answers 429 rate_limited with Retry-After past a burst of twice the rate, for that key only', async () => {
    const busy = await api.merchantWithKey('test');
    const calm = await api.merchantWithKey('test');
    const statuses: number[] = [];
    // Alternating route families: the limit is per key, not per controller.
    for (let i = 0; i < 12; i++) {
      const path = i % 2 === 0 ? '/v1/payments' : '/v1/events';
      const response = await api.http().get(path).set('Authorization', `Bearer ${busy.key}`);
      statuses.push(response.status);
    }
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThanOrEqual(10);
    expect(statuses.at(-1)).toBe(429);

    const limited = await api.http().get('/v1/payments').set('Authorization', `Bearer ${busy.key}`).expect(429);
    expect(limited.body.error).toMatchObject({ code: 'rate_limited', type: 'rate_limit_error' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(limited.body.error.requestId).toBe(limited.headers['request-id']);

    await api.http().get('/v1/payments').set('Authorization', `Bearer ${calm.key}`).expect(200);
  });
});
