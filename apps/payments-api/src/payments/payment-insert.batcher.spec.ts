import { PaymentInsertBatcher, takeConflictFree } from './payment-insert.batcher';
import type { NewPayment, PaymentsRepository } from './payments.repository';

let sequence = 0;
function newPayment(overrides: { key?: string; orderId?: string; merchantId?: string } = {}): NewPayment {
  sequence += 1;
  return {
    payment: {
      id: `pay_${sequence}`,
      merchantId: overrides.merchantId ?? 'mch_1',
      livemode: false,
      orderId: overrides.orderId ?? `order-${sequence}`,
      customerId: 'c',
      amount: 1000,
      currency: 'KRW',
      status: 'pending',
      returnUrl: 'https://shop.example',
      paySuffix: 's',
      expiresAt: new Date(),
      createdAt: new Date(),
      completedAt: null,
    },
    idempotencyKey: overrides.key ?? `key-${sequence}`,
    fingerprint: 'f',
    responseBody: '{}',
    idempotencyTtlHours: 24,
  };
}

const ids = (payments: NewPayment[]) => payments.map((p) => p.payment.id);

describe('takeConflictFree', () => {
  const waiting = (payments: NewPayment[]) => payments.map((payment) => ({ payment }));
  const idsOf = (creates: { payment: NewPayment }[]) => ids(creates.map((create) => create.payment));

  it('takes the whole queue when no two creates share a key or an order', () => {
    const queue = waiting([newPayment(), newPayment(), newPayment()]);
    const all = idsOf(queue);
    expect(idsOf(takeConflictFree(queue, 100))).toEqual(all);
    expect(queue).toEqual([]);
  });

  it('leaves repeats of a key or an order for a later batch, in arrival order', () => {
    const [a, b, c, d, e, f] = [
      newPayment({ key: 'k' }),
      newPayment({ key: 'k' }),
      newPayment({ orderId: 'o' }),
      newPayment({ orderId: 'o' }),
      newPayment({ key: 'k' }),
      newPayment(),
    ];
    const queue = waiting([a, b, c, d, e, f]);
    expect(idsOf(takeConflictFree(queue, 100))).toEqual(ids([a, c, f]));
    expect(idsOf(takeConflictFree(queue, 100))).toEqual(ids([b, d]));
    expect(idsOf(takeConflictFree(queue, 100))).toEqual(ids([e]));
  });

  it('never takes a create before an earlier one that shares its key or order', () => {
    // c shares its key with b; d shares its order with c, left behind: d waits too.
    const a = newPayment();
    const b = newPayment({ key: 'k' });
    const c = newPayment({ key: 'k', orderId: 'o' });
    const d = newPayment({ orderId: 'o' });
    const queue = waiting([a, b, c, d]);
    expect(idsOf(takeConflictFree(queue, 100))).toEqual(ids([a, b]));
    expect(idsOf(queue)).toEqual(ids([c, d]));
  });

  it('takes at most `max`, leaving the rest queued in order', () => {
    const payments = [newPayment(), newPayment(), newPayment()];
    const queue = waiting(payments);
    expect(idsOf(takeConflictFree(queue, 2))).toEqual(ids(payments.slice(0, 2)));
    expect(idsOf(queue)).toEqual(ids(payments.slice(2)));
  });

  it('tells merchants apart: the same key or order of two merchants is no conflict', () => {
    const queue = waiting([
      newPayment({ key: 'k', orderId: 'o' }),
      newPayment({ key: 'k', orderId: 'o', merchantId: 'mch_2' }),
    ]);
    expect(takeConflictFree(queue, 100)).toHaveLength(2);
  });
});

/** A repository whose statements finish when the test says so. */
function controlledRepository() {
  const statements: { payments: NewPayment[]; finish: (error?: Error) => void }[] = [];
  const repository = {
    insertWithIdempotencyKeys: (payments: NewPayment[]) =>
      new Promise<Set<string>>((resolve, reject) => {
        statements.push({
          payments,
          finish: (error) => (error ? reject(error) : resolve(new Set(ids(payments)))),
        });
      }),
  } as unknown as PaymentsRepository;
  return { repository, statements };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));
/** A few turns of the event loop at most, until `condition` holds: the batcher's hops are its own business. */
async function turnsUntil(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 10 && !condition(); i++) await turn();
  expect(condition()).toBe(true);
}
const rowError = (message: string) => Object.assign(new Error(message), { code: '23505' });

describe('PaymentInsertBatcher', () => {
  it('sends creates of the same turn as one statement, and gathers the rest while four statements run', async () => {
    const { repository, statements } = controlledRepository();
    const batcher = new PaymentInsertBatcher(repository);
    const first = [newPayment(), newPayment()];
    const firstResults = Promise.all(first.map((p) => batcher.insert(p)));
    await turnsUntil(() => statements.length === 1);
    expect(statements.map((s) => ids(s.payments))).toEqual([ids(first)]);

    for (let i = 2; i <= 4; i++) {
      void batcher.insert(newPayment());
      await turnsUntil(() => statements.length === i);
    }
    const gathered = [newPayment(), newPayment(), newPayment()];
    const gatheredResults = Promise.all(gathered.map((p) => batcher.insert(p)));
    await turn();
    await turn();
    expect(statements).toHaveLength(4);

    statements[0].finish();
    await expect(firstResults).resolves.toEqual([true, true]);
    await turnsUntil(() => statements.length === 5);
    expect(ids(statements[4].payments)).toEqual(ids(gathered));
    statements[4].finish();
    await expect(gatheredResults).resolves.toEqual([true, true, true]);
    for (const statement of statements.slice(1, 4)) statement.finish();
  });

  it('splits a statement that failed on a row in halves until the failing create stands alone', async () => {
    const { repository, statements } = controlledRepository();
    const batcher = new PaymentInsertBatcher(repository);
    const batch = [newPayment(), newPayment(), newPayment(), newPayment()];
    const results = batch.map((p) => batcher.insert(p));
    // Checked at the end; handled now, so that the early rejection is not reported as unhandled.
    for (const result of results) result.catch(() => undefined);
    await turnsUntil(() => statements.length === 1);
    statements[0].finish(rowError('order held'));
    await turnsUntil(() => statements.length === 2);
    statements[1].finish();
    await turnsUntil(() => statements.length === 3);
    statements[2].finish(rowError('order held'));
    await turnsUntil(() => statements.length === 4);
    statements[3].finish(rowError('order held'));
    await turnsUntil(() => statements.length === 5);
    statements[4].finish();
    await expect(Promise.all(results.slice(0, 2))).resolves.toEqual([true, true]);
    await expect(results[2]).rejects.toThrow('order held');
    await expect(results[3]).resolves.toBe(true);
    expect(statements.map((s) => ids(s.payments))).toEqual([
      ids(batch),
      ids(batch.slice(0, 2)),
      ids(batch.slice(2)),
      ids([batch[2]]),
      ids([batch[3]]),
    ]);
  });

  it('answers the creates of a finished statement while others still run', async () => {
    const { repository, statements } = controlledRepository();
    const batcher = new PaymentInsertBatcher(repository);
    const slow = batcher.insert(newPayment());
    await turnsUntil(() => statements.length === 1);
    const fast = batcher.insert(newPayment());
    await turnsUntil(() => statements.length === 2);
    statements[1].finish();
    await expect(fast).resolves.toBe(true);
    statements[0].finish();
    await expect(slow).resolves.toBe(true);
  });

  it('fails every create of a statement that failed for want of the database, without retrying them alone', async () => {
    const { repository, statements } = controlledRepository();
    const batcher = new PaymentInsertBatcher(repository);
    const results = [newPayment(), newPayment()].map((p) => batcher.insert(p));
    for (const result of results) result.catch(() => undefined);
    await turnsUntil(() => statements.length === 1);
    statements[0].finish(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
    for (const result of results) await expect(result).rejects.toThrow('ECONNREFUSED');
    expect(statements).toHaveLength(1);
  });
});
