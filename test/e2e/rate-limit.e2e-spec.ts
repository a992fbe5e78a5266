import { isolatedServices, type IsolatedServices } from '../support/isolated-services';
import { PaymentsApiHarness } from '../support/payments-api.harness';
import { timeFor } from '../support/time-budget';

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

/**
 * The limit holds per key across all API instances together (ADR 0017). Three
 * instances on one database; a key's requests spread over them, or all sent to one of them, get
 * the one bucket's burst and refill: not three times it, and not a third of it.
 */
describe('rate limiting per API key across three API instances', () => {
  const RATE = 10;
  /** Requests in flight at once: more than the bucket refills while a wave is answered, on any machine. */
  const WAVE = 3 * RATE;
  const SECONDS = 4;
  let services: IsolatedServices;
  let instances: PaymentsApiHarness[];

  beforeAll(
    async () => {
      services = await isolatedServices('rate_three');
      instances = [];
      for (let i = 0; i < 3; i++) {
        instances.push(await PaymentsApiHarness.start({ ...services.env, RATE_LIMIT_PER_SECOND: String(RATE) }));
      }
    },
    timeFor({ database: 1, app: 3 }),
  );
  afterAll(async () => {
    for (const instance of instances ?? []) await instance.stop();
    await services.drop();
  });

  /**
   * Waves of WAVE parallel requests with one key for SECONDS, each request to `instanceFor(i)`.
   * Every wave asks more than the bucket holds, so each empties it: what was served is the burst
   * plus what refilled until the last wave, and never more than the refill until the end.
   */
  async function drive(key: string, instanceFor: (i: number) => PaymentsApiHarness) {
    const statuses: number[] = [];
    const started = Date.now();
    let lastWaveAt = started;
    let sent = 0;
    while (Date.now() - started < SECONDS * 1000) {
      lastWaveAt = Date.now();
      const wave = await Promise.all(
        Array.from({ length: WAVE }, () => {
          const i = sent++;
          return instanceFor(i).http().get('/v1/payments').set('Authorization', `Bearer ${key}`);
        }),
      );
      statuses.push(...wave.map((response) => response.status));
    }
    const elapsedSeconds = (Date.now() - started) / 1000;
    const served = statuses.filter((status) => status === 200).length;
    expect(served + statuses.filter((status) => status === 429).length).toBe(statuses.length);
    return { served, elapsedSeconds, refilledBeforeLastWave: ((lastWaveAt - started) / 1000) * RATE };
  }

  it('serves the one bucket when requests go to the three in turn', async () => {
    const merchant = await instances[0].merchantWithKey('test');
    const { served, elapsedSeconds, refilledBeforeLastWave } = await drive(merchant.key, (i) => instances[i % 3]);
    expect(served).toBeLessThanOrEqual(Math.floor(2 * RATE + RATE * elapsedSeconds) + 1);
    expect(served).toBeGreaterThanOrEqual(Math.floor(0.9 * (2 * RATE + refilledBeforeLastWave)));
  });

  it('serves the same when every request goes to one of the three', async () => {
    const merchant = await instances[0].merchantWithKey('test');
    const { served, elapsedSeconds, refilledBeforeLastWave } = await drive(merchant.key, () => instances[2]);
    expect(served).toBeLessThanOrEqual(Math.floor(2 * RATE + RATE * elapsedSeconds) + 1);
    expect(served).toBeGreaterThanOrEqual(Math.floor(0.9 * (2 * RATE + refilledBeforeLastWave)));
  });
});
