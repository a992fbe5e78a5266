import { BATCHES_IN_FLIGHT, PaymentInsertBatcher } from './payment-insert.batcher';
import type { Ledger, NewPayment } from '../../core/ledger';

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
      refundedAmount: 0,
      taxFreeAmount: 0,
      metadata: {},
      cashReceiptAsked: null,
      escrow: null,
    },
    idempotencyKey: overrides.key ?? `key-${sequence}`,
    fingerprint: 'f',
    responseBody: '{}',
    idempotencyTtlHours: 24,
    escrowBuyerEmail: null,
    cashReceiptSecret: null,
  };
}

const ids = (payments: NewPayment[]) => payments.map((p) => p.payment.id);

/** A ledger whose create statements finish when the test says so. */
function controlledLedger() {
  const statements: { payments: NewPayment[]; finish: (error?: Error) => void }[] = [];
  const ledger = {
    createPayments: (payments: NewPayment[]) =>
      new Promise<Set<string>>((resolve, reject) => {
        statements.push({
          payments,
          finish: (error) => (error ? reject(error) : resolve(new Set(ids(payments)))),
        });
      }),
  } as unknown as Ledger;
  return { ledger, statements };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));
/** A few turns of the event loop at most, until `condition` holds: the batcher's hops are its own business. */
async function turnsUntil(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 10 && !condition(); i++) await turn();
  expect(condition()).toBe(true);
}
const rowError = (message: string) => Object.assign(new Error(message), { code: '23505' });

describe('PaymentInsertBatcher', () => {
  /** A batcher whose BATCHES_IN_FLIGHT statement slots are all taken by statements of one create each. */
  async function busyBatcher() {
    const { ledger, statements } = controlledLedger();
    const batcher = new PaymentInsertBatcher(ledger);
    // One per turn: the creates of one turn would share a statement.
    const busy: Promise<boolean>[] = [];
    while (busy.length < BATCHES_IN_FLIGHT) {
      busy.push(batcher.insert(newPayment()));
      await turnsUntil(() => statements.length === busy.length);
    }
    const releaseOne = async (index: number) => {
      statements[index].finish();
      await busy[index];
    };
    return { batcher, statements, releaseOne };
  }

  it('sends the creates read in one turn as one statement', async () => {
    const { ledger, statements } = controlledLedger();
    const batcher = new PaymentInsertBatcher(ledger);
    const sameTurn = [newPayment(), newPayment()];
    const results = Promise.all(sameTurn.map((p) => batcher.insert(p)));
    await turnsUntil(() => statements.length === 1);
    expect(ids(statements[0].payments)).toEqual(ids(sameTurn));
    statements[0].finish();
    await expect(results).resolves.toEqual([true, true]);
  });

  it('gathers the creates that arrive while every statement slot is busy', async () => {
    const { batcher, statements, releaseOne } = await busyBatcher();
    expect(statements.map((s) => s.payments.length)).toEqual(Array(BATCHES_IN_FLIGHT).fill(1));
    const gathered = [newPayment(), newPayment(), newPayment()];
    const results = Promise.all(gathered.map((p) => batcher.insert(p)));
    await turn();
    expect(statements).toHaveLength(BATCHES_IN_FLIGHT);

    await releaseOne(0);
    await turnsUntil(() => statements.length === BATCHES_IN_FLIGHT + 1);
    expect(ids(statements[BATCHES_IN_FLIGHT].payments)).toEqual(ids(gathered));
    statements[BATCHES_IN_FLIGHT].finish();
    await expect(results).resolves.toEqual([true, true, true]);
  });

  it('keeps a repeated idempotency key or order of a merchant for a later statement', async () => {
    const { batcher, statements, releaseOne } = await busyBatcher();
    const first = newPayment({ key: 'k', orderId: 'o' });
    const sameKey = newPayment({ key: 'k' });
    const sameOrder = newPayment({ orderId: 'o' });
    const otherMerchant = newPayment({ key: 'k', orderId: 'o', merchantId: 'mch_2' });
    const results = [first, sameKey, sameOrder, otherMerchant].map((p) => batcher.insert(p));

    await releaseOne(0);
    await turnsUntil(() => statements.length === BATCHES_IN_FLIGHT + 1);
    expect(ids(statements[BATCHES_IN_FLIGHT].payments)).toEqual(ids([first, otherMerchant]));
    await releaseOne(1);
    await turnsUntil(() => statements.length === BATCHES_IN_FLIGHT + 2);
    expect(ids(statements[BATCHES_IN_FLIGHT + 1].payments)).toEqual(ids([sameKey, sameOrder]));
    for (const statement of statements.slice(BATCHES_IN_FLIGHT)) statement.finish();
    await expect(Promise.all(results)).resolves.toEqual([true, true, true, true]);
  });

  it('splits a statement that failed on a row in halves until the failing create stands alone', async () => {
    const { batcher, statements, releaseOne } = await busyBatcher();
    const batch = [newPayment(), newPayment(), newPayment(), newPayment()];
    const results = batch.map((p) => batcher.insert(p));
    // Checked at the end; handled now, so that the early rejection is not reported as unhandled.
    for (const result of results) result.catch(() => undefined);
    await releaseOne(0);
    const at = (n: number) => BATCHES_IN_FLIGHT + n;
    await turnsUntil(() => statements.length === at(1));
    statements[at(0)].finish(rowError('order held'));
    await turnsUntil(() => statements.length === at(2));
    statements[at(1)].finish();
    await turnsUntil(() => statements.length === at(3));
    statements[at(2)].finish(rowError('order held'));
    await turnsUntil(() => statements.length === at(4));
    statements[at(3)].finish(rowError('order held'));
    await turnsUntil(() => statements.length === at(5));
    statements[at(4)].finish();
    await expect(Promise.all(results.slice(0, 2))).resolves.toEqual([true, true]);
    await expect(results[2]).rejects.toThrow('order held');
    await expect(results[3]).resolves.toBe(true);
    expect(statements.slice(BATCHES_IN_FLIGHT).map((s) => ids(s.payments))).toEqual([
      ids(batch),
      ids(batch.slice(0, 2)),
      ids(batch.slice(2)),
      ids([batch[2]]),
      ids([batch[3]]),
    ]);
  });

  it('fails every create of a statement that failed for want of the database, without retrying them alone', async () => {
    const { batcher, statements, releaseOne } = await busyBatcher();
    const results = [newPayment(), newPayment()].map((p) => batcher.insert(p));
    for (const result of results) result.catch(() => undefined);
    await releaseOne(0);
    await turnsUntil(() => statements.length === BATCHES_IN_FLIGHT + 1);
    statements[BATCHES_IN_FLIGHT].finish(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
    for (const result of results) await expect(result).rejects.toThrow('ECONNREFUSED');
    expect(statements).toHaveLength(BATCHES_IN_FLIGHT + 1);
  });
});
