// The load of the crash tests (npm run test:faults, npm run test:cluster): payments created, then
// completed at a steady rate while faults are injected, each request repeated until the API answers
// (a restart or outage is a 503 or no answer, never a 500), and the receiver waited on afterwards.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { sleep } from './harness.mjs';

/** Long enough for every planned restart and outage; a crashed API fails the run instead of hanging it. */
const GIVE_UP_AFTER_MS = 60_000;

function giveUpAfter(what) {
  const since = Date.now();
  return () => {
    if (Date.now() - since > GIVE_UP_AFTER_MS) throw new Error(`${what}: no success for ${GIVE_UP_AFTER_MS / 1000} s`);
  };
}

/**
 * Flows of `total` payments completed at `rate` per second through `client`; `statuses` counts every
 * answer the API gave during them (a 500 fails a run).
 */
export function paymentFlows({ client, total, rate, log }) {
  const statuses = new Map();
  const count = (status) => statuses.set(status, (statuses.get(status) ?? 0) + 1);

  /** Creates a payment, with the same Idempotency-Key until the API answers 201 (503 during an outage). */
  async function create(auth, orderId) {
    const stillWaiting = giveUpAfter(`creating ${orderId}`);
    for (;;) {
      try {
        const { status, body } = await client.call(
          'POST',
          '/v1/payments',
          { orderId, customerId: 'faults', amount: 15000, currency: 'KRW', returnUrl: 'https://shop.example/r' },
          { ...auth, 'idempotency-key': orderId },
        );
        count(status);
        if (status === 201) return body.data.id;
        if (status !== 503) throw new Error(`create answered ${status}`);
      } catch (error) {
        if (error.message?.startsWith('create answered')) throw error;
        // the API is down for its restart
      }
      stillWaiting();
      await sleep(200);
    }
  }

  /** POST until the API answers; a 409 means the completion already happened before a crash. */
  async function complete(auth, paymentId) {
    const stillWaiting = giveUpAfter(`completing ${paymentId}`);
    for (;;) {
      try {
        const { status } = await client.call(
          'POST',
          `/v1/test-helpers/payments/${paymentId}/complete`,
          undefined,
          auth,
        );
        count(status);
        if (status === 200 || status === 409) return;
      } catch {
        // the API is down for its restart
      }
      stillWaiting();
      await sleep(200);
    }
  }

  /** Creates `total` payments, then completes them at `rate` while `injectFaults(seconds)` runs. */
  async function flow(key, label, injectFaults) {
    const auth = { authorization: `Bearer ${key}` };
    log(`${label}: creating ${total} payments`);
    const ids = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        while (next < total) {
          const index = next++;
          ids[index] = await create(auth, `faults-${label}-${index}-${randomBytes(4).toString('hex')}`);
        }
      }),
    );
    log(`${label}: completing ${total} at ${rate}/s while injecting faults`);
    const seconds = total / rate;
    const faults = injectFaults(seconds);
    const started = Date.now();
    const completions = [];
    for (let i = 0; i < ids.length; i++) {
      const wait = started + (i * 1000) / rate - Date.now();
      if (wait > 0) await sleep(wait);
      completions.push(complete(auth, ids[i]));
    }
    await Promise.all([...completions, faults]);
  }

  return { flow, statuses };
}

/** How many of the merchant's payments are completed, read from the database itself. */
export async function completedPayments(connectionString, merchantId) {
  const db = new pg.Client({ connectionString });
  await db.connect();
  try {
    const { rows } = await db.query(
      `SELECT count(*)::int AS n FROM payments WHERE merchant_id = $1 AND status = 'completed'`,
      [merchantId],
    );
    return rows[0].n;
  } finally {
    await db.end();
  }
}

/** The receiver's stats once `expected` distinct events arrived, or when `timeoutMs` ran out. */
export async function receiverOnceAll(receiver, expected, timeoutMs = 180_000) {
  const deadline = Date.now() + timeoutMs;
  let stats = await receiver.stats();
  while (stats.distinct < expected && Date.now() < deadline) {
    await sleep(500);
    stats = await receiver.stats();
  }
  return stats;
}
