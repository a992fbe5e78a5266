// Measurements shared by npm run bench and npm run bench:local: the same load and the same figures
// for both modes, so their numbers stand side by side.
import { randomBytes } from 'node:crypto';
import { sleep } from './harness.mjs';

export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
export const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
export const LATENCY_RATE = 200; // completions per second
export const LATENCY_SECONDS = Number(process.env.BENCH_LATENCY_SECONDS ?? 30);
/**
 * Seconds at the rate before the measured ones, not counted, for every completion → webhook row (the
 * steady rate's and its floor's, the isolation and fan-out rows') alike: each is of a warm pipeline,
 * not of processes that have just started and have their first connections to open and their code to
 * compile. What a fresh dispatcher's first seconds cost is reported beside the isolation rows.
 */
export const LATENCY_WARM_UP_SECONDS = Number(process.env.BENCH_LATENCY_WARM_UP_SECONDS ?? 5);

export const log = (line) => console.log(`[bench] ${line}`);
export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
export const percentile = (xs, p) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};
export const fmt = (n, digits = 0) =>
  n === undefined ? '–' : n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
export const range = (m, digits = 0) =>
  m ? `${fmt(m.median, digits)} (${fmt(m.min, digits)}–${fmt(m.max, digits)})` : '–';

let sequence = 0;
export const paymentBody = () => ({
  orderId: `bench-${process.pid}-${++sequence}-${randomBytes(4).toString('hex')}`,
  customerId: 'bench-customer',
  amount: 15000,
  currency: 'KRW',
  returnUrl: 'https://shop.example/return',
});

/** JSON over the API client; a 4xx/5xx answer fails the run. */
export function httpOf(client) {
  return async (method, path, body, headers = {}) => {
    const response = await client.call(method, path, body, headers);
    if (response.status >= 400)
      throw new Error(`${method} ${path} → ${response.status} ${JSON.stringify(response.body)}`);
    return response.body;
  };
}

/** ROUNDS runs of `measure`; the median with min and max of each figure. */
export async function rounds(measure) {
  const [summary] = await alternatingRounds([measure]);
  return summary;
}

/**
 * ROUNDS runs of each of `measures`, taking turns (a, b, a, b, …), so that two figures set against
 * each other see the same drift of a shared machine; a summary like rounds() of each.
 */
export async function alternatingRounds(measures) {
  const results = measures.map(() => []);
  for (let i = 0; i < ROUNDS; i++) {
    for (const [index, measure] of measures.entries()) results[index].push(await measure());
  }
  const summary = (runs) => {
    const pick = (key) => {
      const values = runs.map((r) => r[key]).filter((v) => v !== undefined);
      return values.length ? { median: median(values), min: Math.min(...values), max: Math.max(...values) } : undefined;
    };
    // A figure of several parts (a run's CPU per process) is the median of each part.
    const pickEach = (key) => {
      const parts = runs.map((r) => r[key]).filter((v) => v !== undefined);
      if (parts.length === 0) return undefined;
      return Object.fromEntries(Object.keys(parts[0]).map((name) => [name, median(parts.map((part) => part[name]))]));
    };
    return { rps: pick('rps'), p50: pick('p50'), p99: pick('p99'), cpu: pickEach('cpu') };
  };
  return results.map(summary);
}

/**
 * Completes payments at `rate` per second and measures completion → the receiver's first delivery;
 * `warmUpSeconds` at the rate go first and are not counted: each receiver of `warmed` (the measured
 * one and any others the events also reach) gets all of them and is reset before the measured
 * seconds. The warm-up's own figures (`warmUp`, the slowest receiver's) are those of a fresh pipeline.
 * `afterWarmUp` runs between the two (the bench's ANALYZE).
 */
export async function completionLatency(
  http,
  key,
  receiver,
  rate = LATENCY_RATE,
  seconds = LATENCY_SECONDS,
  { warmUpSeconds = 0, warmed = [receiver], afterWarmUp } = {},
) {
  for (const each of warmed) await each.reset();
  const warmUp = rate * warmUpSeconds;
  const total = rate * seconds;
  const auth = { authorization: `Bearer ${key}` };
  log(`creating ${warmUp + total} payments to complete`);
  const ids = [];
  const create = async () => {
    while (ids.length < warmUp + total) {
      const body = paymentBody();
      const { data } = await http('POST', '/v1/payments', body, { ...auth, 'idempotency-key': body.orderId });
      ids.push(data.id);
    }
  };
  await Promise.all(Array.from({ length: 20 }, create));
  const completeAtRate = async (some) => {
    const started = Date.now();
    const inflight = [];
    for (let i = 0; i < some.length; i++) {
      const wait = started + (i * 1000) / rate - Date.now();
      if (wait > 0) await sleep(wait);
      inflight.push(http('POST', `/v1/test-helpers/payments/${some[i]}/complete`, undefined, auth));
    }
    await Promise.all(inflight);
  };
  let warmUpFigures;
  if (warmUp > 0) {
    log(`warming up: completing ${rate}/s for ${warmUpSeconds} s, not counted`);
    await completeAtRate(ids.slice(0, warmUp));
    const received = [];
    for (const each of warmed) received.push(await receivedLatency(each, warmUp));
    for (const each of warmed) await each.reset();
    warmUpFigures = {
      p50: Math.max(...received.map((run) => run.p50)),
      p99: Math.max(...received.map((run) => run.p99)),
    };
  }
  await afterWarmUp?.();
  const measured = ids.slice(warmUp, warmUp + total); // the creating workers may make a few more
  log(`completing ${rate}/s for ${seconds} s`);
  await completeAtRate(measured);
  return { ...(await receivedLatency(receiver, total)), paymentIds: measured, warmUp: warmUpFigures };
}

/**
 * Waits (a minute at most) until `total` distinct events reached `receiver`; each event's latency is its
 * first arrival less its body's data.completedAt. Every latency row of the bench is measured so.
 */
export async function receivedLatency(receiver, total) {
  const deadline = Date.now() + 60_000;
  let stats = await receiver.stats();
  while (stats.distinct < total && Date.now() < deadline) {
    await sleep(200);
    stats = await receiver.stats();
  }
  return {
    completed: total,
    delivered: stats.distinct,
    duplicates: stats.deliveries - stats.distinct,
    p50: percentile(stats.latencies, 50),
    p99: percentile(stats.latencies, 99),
  };
}
