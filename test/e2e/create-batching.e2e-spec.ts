import { Client } from 'pg';
import {
  BATCHES_IN_FLIGHT,
  PaymentInsertBatcher,
} from '../../apps/payments-api/src/money/payments/payment-insert.batcher';
import { expectApiError, idemKey, rowCounts } from '../support/api-expectations';
import { PaymentsApiHarness, paymentBody, type TestMerchant } from '../support/payments-api.harness';
import { paymentsClient, type PaymentsClient } from '../support/payments-client';
import { pollUntil } from '../support/poll-until';
import { queuedIn } from '../support/queued-in';

/**
 * Creates that arrive together share one statement (ADR 0013). Whatever lands in the same batch,
 * every create must answer exactly as it would alone.
 */
describe('Creates arriving together', () => {
  let api: PaymentsApiHarness;
  let merchant: TestMerchant;
  let payments: PaymentsClient;

  beforeAll(async () => {
    api = await PaymentsApiHarness.start();
  });
  afterAll(() => api.stop());
  beforeEach(async () => {
    merchant = await api.merchantWithKey('test');
    payments = paymentsClient(api, merchant.key);
  });

  /**
   * Sends `send`'s creates while BATCHES_IN_FLIGHT others wait on idempotency keys this test holds in an open
   * transaction (ADR 0001): with every statement slot taken, the creates gather into one batch,
   * and they all go once the keys are let go. Only this test's merchant is held up.
   */
  async function arrivingTogether<T>(send: () => Promise<T>[]): Promise<T[]> {
    const holder = new Client({ connectionString: api.env.DATABASE_URL });
    await holder.connect();
    try {
      const heldKeys = Array.from({ length: BATCHES_IN_FLIGHT }, () => idemKey());
      await holder.query('BEGIN');
      await holder.query(
        `INSERT INTO idempotency_keys (merchant_id, livemode, key, fingerprint, response_status, response_body, expires_at)
         SELECT $1, false, key, 'held', 201, '{}', now() + interval '1 hour' FROM unnest($2::text[]) AS key`,
        [merchant.merchantId, heldKeys],
      );
      const [{ pid }] = (await holder.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows;
      const waitingOnHolder = async () =>
        (
          await api.sql<{ waiting: number }>(
            'SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))',
            [pid],
          )
        )[0].waiting;
      // One at a time, so that each takes a statement slot of its own.
      const held: Promise<{ status: number }>[] = [];
      for (const key of heldKeys) {
        held.push(Promise.resolve(payments.create(paymentBody(), key)));
        await pollUntil(waitingOnHolder, (waiting) => waiting === held.length);
      }
      // Every request reached the API and waits for a slot behind the waiting statements.
      const answers = Promise.all(await queuedIn(api.app.get(PaymentInsertBatcher), send));
      await holder.query('ROLLBACK');
      // Let go, the held keys were never used: their creates go through.
      for (const answer of await Promise.all(held)) expect(answer.status).toBe(201);
      return await answers;
    } finally {
      await holder.end();
    }
  }

  /** How many payments each statement inserted (rows written by one statement share its xmin). */
  const paymentsPerStatement = async () =>
    (
      await api.sql<{ rows: number }>(
        `SELECT count(*)::int AS rows FROM payments WHERE merchant_id = $1 GROUP BY xmin::text`,
        [merchant.merchantId],
      )
    ).map((group) => group.rows);

  it('answers each of 60 concurrent creates as if it had come alone', async () => {
    const repeatedKey = idemKey();
    const repeatedBody = paymentBody();
    const contestedOrder = paymentBody();
    const requests = [
      ...Array.from({ length: 20 }, () => ({ kind: 'new', body: paymentBody(), key: idemKey() })),
      ...Array.from({ length: 20 }, () => ({ kind: 'same key', body: repeatedBody, key: repeatedKey })),
      ...Array.from({ length: 20 }, () => ({ kind: 'same order', body: contestedOrder, key: idemKey() })),
    ];
    // Interleaved, so that every batch mixes the three kinds.
    const order = requests.map((_, i) => (i % 3) * 20 + Math.floor(i / 3));
    const answers = await arrivingTogether(() => order.map((i) => payments.create(requests[i].body, requests[i].key)));
    const byKind = (kind: string) => answers.filter((_, n) => requests[order[n]].kind === kind);

    for (const answer of byKind('new')) expect(answer.status).toBe(201);

    const sameKey = byKind('same key');
    expect(sameKey.map((answer) => answer.status)).toEqual(Array(20).fill(201));
    expect(new Set(sameKey.map((answer) => answer.text)).size).toBe(1);
    expect(sameKey.filter((answer) => answer.headers['idempotent-replayed'] !== 'true')).toHaveLength(1);

    const sameOrder = byKind('same order');
    const winners = sameOrder.filter((answer) => answer.status === 201);
    expect(winners).toHaveLength(1);
    for (const loser of sameOrder.filter((answer) => answer.status !== 201)) {
      expectApiError(loser, { status: 409, code: 'order_already_active' });
      expect(loser.body.error.message).toContain(winners[0].body.data.id);
    }

    // 20 new + 1 for the repeated key + 1 for the contested order (+ the held-back ones); refused creates
    // leave no key behind.
    await expect(rowCounts(api, merchant.merchantId)).resolves.toEqual({
      payments: 22 + BATCHES_IN_FLIGHT,
      idempotencyKeys: 22 + BATCHES_IN_FLIGHT,
    });
    for (const answer of [...byKind('new'), sameKey[0], winners[0]]) {
      const stored = await payments.get(answer.body.data.id);
      expect(stored.body.data).toMatchObject({ id: answer.body.data.id, status: 'pending' });
    }
    expect(Math.max(...(await paymentsPerStatement()))).toBeGreaterThan(1);
  });

  it('keeps one bad create from failing the others that share its statement', async () => {
    // Only the database knows the order is held: its unique violation fails the shared statement.
    const held = paymentBody();
    expect((await payments.create(held)).status).toBe(201);
    const bodies = [...Array.from({ length: 30 }, () => paymentBody()), held];
    const answers = await arrivingTogether(() => bodies.map((body) => payments.create(body)));
    expect(answers.slice(0, 30).map((answer) => answer.status)).toEqual(Array(30).fill(201));
    expectApiError(answers[30], { status: 409, code: 'order_already_active' });
    await expect(rowCounts(api, merchant.merchantId)).resolves.toEqual({
      payments: 31 + BATCHES_IN_FLIGHT,
      idempotencyKeys: 31 + BATCHES_IN_FLIGHT,
    });
  });
});
