import { healthChanges, type HealthObservation } from './endpoint-health';

const shop = { id: 'we_a', merchantId: 'mch_a', livemode: false };
// Another endpoint of the same merchant and mode: each endpoint has a health of its own.
const other = { id: 'we_b', merchantId: 'mch_a', livemode: false };
const at = (second: number) => new Date(Date.UTC(2026, 10, 24, 0, 0, second));
const fail = (endpoint = shop, second = 0, error = 'HTTP 500'): HealthObservation => ({
  endpoint,
  failed: true,
  startedAt: at(second),
  error,
});
const ok = (endpoint = shop, second = 0): HealthObservation => ({
  endpoint,
  failed: false,
  startedAt: at(second),
  error: null,
});

describe('healthChanges', () => {
  it('adds up failures with the first one as failing-since and the last error', () => {
    expect(healthChanges([fail(shop, 1, 'timeout'), fail(shop, 2, 'HTTP 502')])).toEqual([
      { endpoint: shop, tailFailures: 2, anySuccess: false, tailFailingSince: at(1), lastError: 'HTTP 502' },
    ]);
  });

  it('starts counting again after a success, keeping only the failures after it', () => {
    expect(healthChanges([fail(shop, 1), ok(shop, 2), fail(shop, 3, 'timeout')])).toEqual([
      { endpoint: shop, tailFailures: 1, anySuccess: true, tailFailingSince: at(3), lastError: 'timeout' },
    ]);
  });

  it('reports a batch that ends in a success as healthy, keeping the last error seen', () => {
    expect(healthChanges([fail(shop, 1, 'timeout'), ok(shop, 2)])).toEqual([
      { endpoint: shop, tailFailures: 0, anySuccess: true, tailFailingSince: null, lastError: 'timeout' },
    ]);
  });

  it("keeps endpoints apart, also the same merchant's in one mode and in test and live mode", () => {
    const live = { id: 'we_c', merchantId: 'mch_a', livemode: true };
    const changes = healthChanges([fail(shop), ok(other), fail(live), fail(shop)]);
    expect(changes.map((c) => [c.endpoint, c.tailFailures, c.anySuccess])).toEqual([
      [shop, 2, false],
      [other, 0, true],
      [live, 1, false],
    ]);
  });
});
