import { Client } from 'pg';
import { BATCHES_IN_FLIGHT, TestRefundBatcher } from '../../apps/payments-api/src/money/refunds/test-refund.batcher';
import { expectApiError, idemKey } from '../support/api-expectations';
import { PaymentsApiHarness, paymentBody, type TestMerchant } from '../support/payments-api.harness';
import { pollUntil } from '../support/poll-until';
import { queuedIn } from '../support/queued-in';
import { completedPayment, refundsClient } from '../support/refunds-client';

/**
 * Test refunds that arrive together share one transaction and statement (TestRefundBatcher). Whatever
 * lands in the same batch, every refund must answer exactly as it would alone, and the money must add up.
 */
describe('Test refunds arriving together', () => {
  let api: PaymentsApiHarness;
  let merchant: TestMerchant;
  let refunds: ReturnType<typeof refundsClient>;

  beforeAll(async () => {
    api = await PaymentsApiHarness.start({ RATE_LIMIT_PER_SECOND: '0' });
  });
  afterAll(() => api.stop());
  beforeEach(async () => {
    merchant = await api.merchantWithKey('test');
    refunds = refundsClient(api, merchant);
  });

  /**
   * Refund batches waiting behind the locks the test's `holder` session holds, directly or in a row's
   * queue, counted by their locked read of payments. The run's database is shared with the spec files
   * running beside this one, whose refunds wait on locks of their own; and another statement that
   * queues behind the test's locks on a slow machine (an insert's foreign-key check, a periodic task)
   * is not a batch taking a slot.
   */
  const refundBatchesBehind = (holderPid: number) => async () => {
    const [{ waiting }] = await api.sql<{ waiting: number }>(
      `WITH RECURSIVE behind (pid) AS (
         SELECT $1::int
         UNION
         SELECT waiter.pid FROM pg_stat_activity waiter JOIN behind ON behind.pid = ANY (pg_blocking_pids(waiter.pid))
       )
       SELECT count(*)::int AS waiting FROM pg_stat_activity JOIN behind USING (pid)
       WHERE query LIKE 'SELECT p.id, p.order_id, p.status, %'`,
      [holderPid],
    );
    return waiting;
  };
  const backendPid = async (client: Client) =>
    (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid;

  /**
   * Sends `send`'s refunds while BATCHES_IN_FLIGHT batches wait on payments this test holds locked in an
   * open transaction: with every batch slot taken, the refunds gather into one batch, and they all go
   * once the locks are let go.
   */
  async function arrivingTogether<T>(send: () => Promise<T>[]): Promise<T[]> {
    const heldPayments = await Promise.all(
      Array.from({ length: BATCHES_IN_FLIGHT }, () => completedPayment(api, merchant, 1_000)),
    );
    const holder = new Client({ connectionString: api.env.DATABASE_URL });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM payments WHERE id = ANY ($1::text[]) FOR UPDATE', [heldPayments]);
      const waitingBehindHolder = refundBatchesBehind(await backendPid(holder));
      // One at a time, so that each takes a batch slot of its own.
      const held: Promise<{ status: number }>[] = [];
      for (const paymentId of heldPayments) {
        held.push(Promise.resolve(refunds.create(paymentId, { amount: 1_000 })));
        await pollUntil(waitingBehindHolder, (waiting) => waiting === held.length);
      }
      // Every request reached the API and waits for a slot behind the waiting batches.
      const answers = Promise.all(await queuedIn(api.app.get(TestRefundBatcher), send));
      await holder.query('ROLLBACK');
      for (const answer of await Promise.all(held)) expect(answer.status).toBe(201);
      return await answers;
    } finally {
      await holder.end();
    }
  }

  /** The payment's amounts beside what its refund rows and settlement records add up to. */
  const moneyOf = async (paymentId: string) =>
    (
      await api.sql<{ refunded: string; held: string; rows: string; records: string; count: number }>(
        `SELECT p.refunded_amount AS refunded, p.refund_held_amount AS held,
                (SELECT COALESCE(sum(amount), 0) FROM refunds WHERE payment_id = p.id) AS rows,
                (SELECT COALESCE(-sum(gross_amount), 0) FROM settlements WHERE refund_id IS NOT NULL AND payment_id = p.id)
                  AS records,
                (SELECT count(*)::int FROM events WHERE payment_id = p.id AND type = 'refund.succeeded') AS count
         FROM payments p WHERE id = $1`,
        [paymentId],
      )
    )[0];

  it('answers each refund of a mixed batch as if it had come alone', async () => {
    const other = await api.merchantWithKey('test');
    const parts = await Promise.all(Array.from({ length: 12 }, () => completedPayment(api, merchant, 5_000)));
    const [whole, contested, repeated, reused] = await Promise.all(
      [7_000, 10_000, 3_000, 3_000].map((amount) => completedPayment(api, merchant, amount)),
    );
    const foreign = await completedPayment(api, other, 5_000);
    const repeatedKey = idemKey();
    const reusedKey = idemKey();
    // The reused key's first use, alone: the batch's second use with another body must be refused.
    expect((await refunds.create(reused, { amount: 1_000 }, reusedKey)).status).toBe(201);

    const requests: { kind: string; paymentId: string; body: object; key?: string }[] = [
      ...parts.map((paymentId, n) => ({ kind: 'part', paymentId, body: { amount: 1_000 + n, reason: `part ${n}` } })),
      { kind: 'whole', paymentId: whole, body: { reason: 'all of it' } },
      ...Array.from({ length: 6 }, () => ({ kind: 'contested', paymentId: contested, body: { amount: 4_000 } })),
      ...Array.from({ length: 6 }, () => ({
        kind: 'same key',
        paymentId: repeated,
        body: { amount: 500 },
        key: repeatedKey,
      })),
      { kind: 'reused key', paymentId: reused, body: { amount: 2_000 }, key: reusedKey },
      { kind: 'foreign', paymentId: foreign, body: { amount: 1_000 } },
    ];
    const answers = await arrivingTogether(() =>
      requests.map((request) => Promise.resolve(refunds.create(request.paymentId, request.body, request.key))),
    );
    const byKind = (kind: string) => answers.filter((_, n) => requests[n].kind === kind);

    byKind('part').forEach((answer, n) => {
      expect(answer.status).toBe(201);
      expect(answer.body.data).toMatchObject({ paymentId: parts[n], amount: 1_000 + n, status: 'succeeded' });
    });
    expect(byKind('whole')[0].body.data).toMatchObject({ amount: 7_000, status: 'succeeded' });

    const contestedAnswers = byKind('contested');
    expect(contestedAnswers.filter((answer) => answer.status === 201)).toHaveLength(2);
    for (const refused of contestedAnswers.filter((answer) => answer.status !== 201)) {
      expectApiError(refused, { status: 409, code: 'refund_amount_exceeded', param: 'amount' });
    }

    const sameKey = byKind('same key');
    expect(sameKey.map((answer) => answer.status)).toEqual(Array(6).fill(201));
    expect(new Set(sameKey.map((answer) => answer.text)).size).toBe(1);
    expect(sameKey.filter((answer) => answer.headers['idempotent-replayed'] !== 'true')).toHaveLength(1);

    expectApiError(byKind('reused key')[0], { status: 422, code: 'idempotency_key_reused' });
    expectApiError(byKind('foreign')[0], { status: 404, code: 'resource_not_found' });

    // Every refund's money, rows, records and events add up; the refused wrote nothing.
    const expected = new Map<string, number>([
      ...parts.map((paymentId, n) => [paymentId, 1_000 + n] as [string, number]),
      [whole, 7_000],
      [contested, 8_000],
      [repeated, 500],
      [reused, 1_000],
      [foreign, 0],
    ]);
    for (const [paymentId, amount] of expected) {
      const money = await moneyOf(paymentId);
      const refundCount = (await refunds.list({ paymentId })).body.data.length;
      expect({ ...money, refundCount }).toEqual({
        refunded: String(amount),
        held: String(amount),
        rows: String(amount),
        records: String(amount),
        count: refundCount,
        refundCount: paymentId === contested ? 2 : amount > 0 ? 1 : 0,
      });
    }
    // Each refund made has its one audit entry, by the key that asked; the refused have none.
    const audited = await api.sql<{ target: string; actor: string }>(
      `SELECT target, actor FROM audit_log WHERE merchant_id = $1 AND action = 'refund.created'`,
      [merchant.merchantId],
    );
    const made = await api.sql<{ id: string }>(`SELECT id FROM refunds WHERE merchant_id = $1`, [merchant.merchantId]);
    expect(audited.map((entry) => entry.target).sort()).toEqual(made.map((refund) => refund.id).sort());
    expect(new Set(audited.map((entry) => entry.actor))).toEqual(new Set([merchant.keyId]));
    // They were written together: some transaction wrote more than one refund.
    const perTransaction = await api.sql<{ refunds: number }>(
      `SELECT count(*)::int AS refunds FROM refunds WHERE merchant_id = $1 GROUP BY xmin::text`,
      [merchant.merchantId],
    );
    expect(Math.max(...perTransaction.map((group) => group.refunds))).toBeGreaterThan(1);
  });

  it('refunds a payment once more after a batch refused it, and refuses what is not completed', async () => {
    const paymentId = await completedPayment(api, merchant, 2_000);
    const created = await api
      .as(merchant)
      .post('/v1/payments')
      .set('Idempotency-Key', idemKey())
      .send(paymentBody({ amount: 1_000 }))
      .expect(201);
    const answers = await arrivingTogether(() => [
      Promise.resolve(refunds.create(paymentId, { amount: 2_001 })),
      Promise.resolve(refunds.create(created.body.data.id as string, { amount: 1 })),
    ]);
    expectApiError(answers[0], { status: 409, code: 'refund_amount_exceeded', param: 'amount' });
    expectApiError(answers[1], { status: 409, code: 'payment_state_conflict' });
    expect((await refunds.create(paymentId, {})).body.data).toMatchObject({ amount: 2_000, status: 'succeeded' });
  });

  it('refunds what is left when a whole-remainder refund ran beside a partial one of the same payment', async () => {
    const paymentId = await completedPayment(api, merchant, 10_000);
    const holder = new Client({ connectionString: api.env.DATABASE_URL });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM payments WHERE id = $1 FOR UPDATE', [paymentId]);
      const waitingBehindHolder = refundBatchesBehind(await backendPid(holder));
      // Each refund's batch has read the whole 10,000 as the remainder and waits on the payment's lock:
      // the first on the holder, the second on the first (in the row's queue).
      const partial = Promise.resolve(refunds.create(paymentId, { amount: 3_000 }));
      await pollUntil(waitingBehindHolder, (waiting) => waiting === 1);
      const whole = Promise.resolve(refunds.create(paymentId, {}));
      await pollUntil(waitingBehindHolder, (waiting) => waiting === 2);
      await holder.query('ROLLBACK');
      expect((await partial).body.data).toMatchObject({ amount: 3_000, status: 'succeeded' });
      expect((await whole).body.data).toMatchObject({ amount: 7_000, status: 'succeeded' });
    } finally {
      await holder.end();
    }
    await expect(moneyOf(paymentId)).resolves.toEqual({
      refunded: '10000',
      held: '10000',
      rows: '10000',
      records: '10000',
      count: 2,
    });
  });
});
