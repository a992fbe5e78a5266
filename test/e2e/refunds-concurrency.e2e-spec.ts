import { expectApiError } from '../support/api-expectations';
import { PaymentsApiHarness, type TestMerchant } from '../support/payments-api.harness';
import { completedPayment, refundsClient } from '../support/refunds-client';

const PAYMENT_AMOUNT = 100_000;
const REFUND_AMOUNT = 137;
const REFUNDS = 1_000;
/** Requests in flight at once: enough to race on the payment's row, few enough for a shared machine. */
const IN_FLIGHT = 64;

/** The VAT inside a VAT-inclusive taxable amount: x/11 to the nearest won. */
const vatIn = (taxable: number) => Math.floor((taxable + 5) / 11);

/** Runs `task` for 0..count-1 with at most `limit` running at once; answers in index order. */
async function boundedAll<T>(count: number, limit: number, task: (index: number) => Promise<T>): Promise<T[]> {
  const results = new Array<T>(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next++;
      results[index] = await task(index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, count) }, worker));
  return results;
}

/**
 * "Refunds racing each other never add up to more than the payment", decided by the
 * database (the guarded reserve on the payment's row), over real HTTP with an Idempotency-Key each.
 */
describe('refunds racing each other', () => {
  let api: PaymentsApiHarness;
  let merchant: TestMerchant;

  beforeAll(async () => {
    // A thousand requests of one key in a few seconds: the rate limit is not what this spec is about.
    api = await PaymentsApiHarness.start({ RATE_LIMIT_PER_SECOND: '0' });
    merchant = await api.merchantWithKey('test');
  });
  afterAll(() => api.stop());

  /** The payment's two amounts beside what its refund rows add up to, by status. */
  const amountsOf = async (paymentId: string) =>
    (
      await api.sql<{ refunded_amount: string; refund_held_amount: string; succeeded: string; pending: string }>(
        `SELECT refunded_amount, refund_held_amount,
                (SELECT COALESCE(sum(amount), 0) FROM refunds WHERE payment_id = p.id AND status = 'succeeded') AS succeeded,
                (SELECT COALESCE(sum(amount), 0) FROM refunds WHERE payment_id = p.id AND status = 'pending') AS pending
         FROM payments p WHERE id = $1`,
        [paymentId],
      )
    )[0];

  it(`${REFUNDS} concurrent partial refunds of one payment never exceed it`, async () => {
    const paymentId = await completedPayment(api, merchant, PAYMENT_AMOUNT);
    const refunds = refundsClient(api, merchant);
    const answers = await boundedAll(REFUNDS, IN_FLIGHT, (index) =>
      Promise.resolve(refunds.create(paymentId, { amount: REFUND_AMOUNT, reason: `part ${index}` })),
    );

    const succeeded = answers.filter((answer) => answer.status === 201);
    const refused = answers.filter((answer) => answer.status !== 201);
    // The guard must let exactly as many through as fit, not merely "not too many".
    const expected = Math.floor(PAYMENT_AMOUNT / REFUND_AMOUNT);
    expect(succeeded).toHaveLength(expected);
    for (const answer of refused) expectApiError(answer, { status: 409, code: 'refund_amount_exceeded' });
    const succeededSum = succeeded.reduce((sum, answer) => sum + (answer.body.data.amount as number), 0);
    expect(succeededSum).toBe(expected * REFUND_AMOUNT);

    expect(await amountsOf(paymentId)).toEqual({
      refunded_amount: String(succeededSum),
      refund_held_amount: String(succeededSum),
      succeeded: String(succeededSum),
      pending: '0',
    });
    const [counts] = await api.sql<{ events: number; records: number }>(
      `SELECT (SELECT count(*)::int FROM events WHERE payment_id = $1 AND type = 'refund.succeeded') AS events,
              (SELECT count(*)::int FROM settlements WHERE payment_id = $1 AND type = 'refund') AS records`,
      [paymentId],
    );
    expect(counts).toEqual({ events: expected, records: expected });
  }, 300_000);

  it('50 concurrent refunds of the whole remainder (amount omitted): exactly one is made', async () => {
    const paymentId = await completedPayment(api, merchant, 10_000);
    const refunds = refundsClient(api, merchant);
    const answers = await Promise.all(Array.from({ length: 50 }, () => Promise.resolve(refunds.create(paymentId, {}))));
    const made = answers.filter((answer) => answer.status === 201);
    expect(made).toHaveLength(1);
    expect(made[0].body.data.amount).toBe(10_000);
    const refused = answers.filter((answer) => answer.status !== 201);
    expect(refused).toHaveLength(49);
    for (const answer of refused) expectApiError(answer, { status: 409, code: 'refund_amount_exceeded' });
    expect(await amountsOf(paymentId)).toEqual({
      refunded_amount: '10000',
      refund_held_amount: '10000',
      succeeded: '10000',
      pending: '0',
    });
  });

  it("live refunds pending at once, then the operator's succeed and fail on all of them at once", async () => {
    const live = await api.merchantWithKey('live', { live: true });
    // ₩30,000 of it tax-free: each refund takes its default share.
    const taxFree = 30_000;
    const paymentId = await completedPayment(api, live, 100_000, true, { taxFreeAmount: taxFree });
    const account = { bank: 'KB', accountNumber: '1', holderName: 'H' };
    const amounts = Array.from({ length: 40 }, (_, index) => 1_237 + index * 13);
    const created = await Promise.all(
      amounts.map((amount) =>
        Promise.resolve(refundsClient(api, live).create(paymentId, { amount, refundAccount: account })),
      ),
    );
    expect(created.map((answer) => answer.status)).toEqual(amounts.map(() => 201));
    const ids = created.map((answer) => answer.body.data.id as string);
    const total = amounts.reduce((sum, amount) => sum + amount, 0);
    expect(await amountsOf(paymentId)).toEqual({
      refunded_amount: '0',
      refund_held_amount: String(total),
      succeeded: '0',
      pending: String(total),
    });

    // Even ones succeed, odd ones fail, all at once; then a second round that must all be refused.
    const move = (id: string, index: number) =>
      Promise.resolve(
        index % 2 === 0
          ? api
              .admin()
              .post(`/admin/v1/refunds/${id}/succeed`)
              .send({ bankTransactionId: `TX-${index}` })
          : api
              .admin()
              .post(`/admin/v1/refunds/${id}/fail`)
              .send({ reason: `closed ${index}` }),
      );
    const moved = await Promise.all(ids.map(move));
    expect(moved.map((answer) => answer.status)).toEqual(ids.map(() => 200));
    const again = await Promise.all(ids.map(move));
    for (const answer of again) expectApiError(answer, { status: 409, code: 'refund_state_conflict' });

    const succeededSum = amounts.filter((_, index) => index % 2 === 0).reduce((sum, amount) => sum + amount, 0);
    expect(await amountsOf(paymentId)).toEqual({
      refunded_amount: String(succeededSum),
      refund_held_amount: String(succeededSum),
      succeeded: String(succeededSum),
      pending: '0',
    });
    // The refund records return the fee by difference of running totals: they sum to the fee of the total.
    const [records] = await api.sql<{ fee_bps: number; fee: string; vat: string; count: number }>(
      `SELECT (SELECT fee_bps FROM settlements WHERE payment_id = $1 AND type = 'payment') AS fee_bps,
              sum(fee_amount) AS fee, sum(vat_amount) AS vat, count(*)::int AS count
       FROM settlements WHERE payment_id = $1 AND type = 'refund'`,
      [paymentId],
    );
    const fee = Math.floor((succeededSum * records.fee_bps) / 10_000);
    expect(records).toEqual({
      fee_bps: records.fee_bps,
      fee: String(-fee),
      vat: String(-Math.floor((fee * 10) / 100)),
      count: amounts.length / 2,
    });
    // Exactly one event per refund and transition, of the transition it made.
    const events = await api.sql<{ refund_id: string; types: string[] }>(
      `SELECT refund_id, array_agg(type) AS types FROM events WHERE payment_id = $1 AND refund_id IS NOT NULL
       GROUP BY refund_id`,
      [paymentId],
    );
    const typesOf = new Map(events.map((row) => [row.refund_id, row.types]));
    expect(ids.map((id) => typesOf.get(id))).toEqual(
      ids.map((_, index) => [index % 2 === 0 ? 'refund.succeeded' : 'refund.failed']),
    );

    // The VAT of the succeeded ones, fixed by running totals while they succeeded at once, adds up to
    // what their taxable parts took of the payment's VAT; the failed ones gave their tax-free parts back.
    const refunds = moved.map((answer) => answer.body.data as Record<string, number | null | string>);
    const succeeded = refunds.filter((refund) => refund.status === 'succeeded');
    for (const refund of refunds) {
      const taxable = (refund.amount as number) - (refund.taxFreeAmount as number);
      expect(refund).toMatchObject(
        refund.status === 'succeeded'
          ? { suppliedAmount: taxable - (refund.vat as number) }
          : { vat: null, suppliedAmount: null },
      );
    }
    const sum = (key: string) => succeeded.reduce((total, refund) => total + (refund[key] as number), 0);
    const paymentTaxable = 100_000 - taxFree;
    const taxableRefunded = sum('amount') - sum('taxFreeAmount');
    expect(sum('vat')).toBe(vatIn(paymentTaxable) - vatIn(paymentTaxable - taxableRefunded));
    const [held] = await api.sql<{ tax_free: string }>(
      'SELECT refund_held_tax_free_amount AS tax_free FROM payments WHERE id = $1',
      [paymentId],
    );
    expect(Number(held.tax_free)).toBe(sum('taxFreeAmount'));
  });

  it('requests racing with one Idempotency-Key make one refund and all answer it', async () => {
    const paymentId = await completedPayment(api, merchant, 10_000);
    const refunds = refundsClient(api, merchant);
    const key = `same-key-${Date.now()}`;
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => Promise.resolve(refunds.create(paymentId, { amount: 6_000 }, key))),
    );
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 201));
    expect(new Set(answers.map((answer) => answer.text)).size).toBe(1);
    expect(await api.sql('SELECT 1 FROM refunds WHERE payment_id = $1', [paymentId])).toHaveLength(1);
  });

  it("the operator's succeed and fail racing on one pending refund: exactly one wins", async () => {
    const live = await api.merchantWithKey('live', { live: true });
    const paymentId = await completedPayment(api, live, 10_000, true);
    const account = { bank: 'KB', accountNumber: '1', holderName: 'H' };
    const created = await refundsClient(api, live).create(paymentId, { refundAccount: account }).expect(201);
    const id = created.body.data.id as string;
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        Promise.resolve(
          index % 2 === 0
            ? api
                .admin()
                .post(`/admin/v1/refunds/${id}/succeed`)
                .send({ bankTransactionId: `TX-${index}` })
            : api
                .admin()
                .post(`/admin/v1/refunds/${id}/fail`)
                .send({ reason: `no ${index}` }),
        ),
      ),
    );
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    for (const answer of answers.filter((one) => one.status !== 200)) {
      expectApiError(answer, { status: 409, code: 'refund_state_conflict' });
    }
    const [payment] = await api.sql<{ refunded_amount: string; refund_held_amount: string }>(
      'SELECT refunded_amount, refund_held_amount FROM payments WHERE id = $1',
      [paymentId],
    );
    const won = answers.find((answer) => answer.status === 200)?.body.data.status as string;
    expect(payment).toEqual(
      won === 'succeeded'
        ? { refunded_amount: '10000', refund_held_amount: '10000' }
        : { refunded_amount: '0', refund_held_amount: '0' },
    );
    expect(await api.sql('SELECT 1 FROM events WHERE refund_id = $1', [id])).toHaveLength(1);
  });
});
