import { expectApiError, idemKey } from '../support/api-expectations';
import { PaymentsApiHarness, type TestMerchant } from '../support/payments-api.harness';
import { completedPayment, refundsClient } from '../support/refunds-client';

const ACCOUNT = { bank: 'KB Kookmin', accountNumber: '110-987-654321', holderName: 'Hong Gildong' };

/** The merchant guide's example: ₩10,000 with ₩3,000 tax-free is VAT 636 and supplied value 6,364. */
const PAYMENT = { amount: 10_000, taxFreeAmount: 3_000, vat: 636, suppliedAmount: 6_364 };

type Refund = Record<string, unknown> & {
  id: string;
  amount: number;
  taxFreeAmount: number;
  vat: number | null;
  suppliedAmount: number | null;
  status: string;
};

/**
 * A refund's tax-free part and its VAT split, as a merchant checks them: partial refunds
 * that add up to the payment's split to the won, the tax-free part's rules and their 400s, a live
 * refund that fails in between, refunds racing for the last tax-free won, and metadata.
 */
describe("refunds' VAT split", () => {
  let api: PaymentsApiHarness;
  let merchant: TestMerchant;
  let live: TestMerchant;
  let refunds: ReturnType<typeof refundsClient>;
  let liveRefunds: ReturnType<typeof refundsClient>;

  beforeAll(async () => {
    api = await PaymentsApiHarness.start({ RATE_LIMIT_PER_SECOND: '0' });
    merchant = await api.merchantWithKey('test');
    live = await api.merchantWithKey('live', { live: true });
    refunds = refundsClient(api, merchant);
    liveRefunds = refundsClient(api, live);
  });
  afterAll(() => api.stop());

  /** A completed payment of ₩10,000 of which ₩3,000 is tax-free. */
  const taxFreePayment = async (livemode = false) =>
    completedPayment(api, livemode ? live : merchant, PAYMENT.amount, livemode, {
      taxFreeAmount: PAYMENT.taxFreeAmount,
    });

  /** The payment's split as its reads show it: what its refunds add up to once it is refunded in full. */
  const splitOf = async (paymentId: string, caller = merchant) => {
    const payment = (await api.as(caller).get(`/v1/payments/${paymentId}`).expect(200)).body.data;
    const { amount, taxFreeAmount, vat, suppliedAmount } = payment as Record<string, number>;
    return { amount, taxFreeAmount, vat, suppliedAmount };
  };

  /** What the payment's succeeded and pending refunds hold of its amount and of its tax-free part. */
  const heldOf = async (paymentId: string) =>
    (
      await api.sql<{ amount: string; tax_free: string }>(
        'SELECT refund_held_amount AS amount, refund_held_tax_free_amount AS tax_free FROM payments WHERE id = $1',
        [paymentId],
      )
    )[0];

  const sumOf = (list: Refund[]) => ({
    amount: list.reduce((sum, refund) => sum + refund.amount, 0),
    taxFreeAmount: list.reduce((sum, refund) => sum + refund.taxFreeAmount, 0),
    vat: list.reduce((sum, refund) => sum + (refund.vat ?? 0), 0),
    suppliedAmount: list.reduce((sum, refund) => sum + (refund.suppliedAmount ?? 0), 0),
  });

  const operator = (id: string, action: 'succeed' | 'fail') =>
    api
      .admin()
      .post(`/admin/v1/refunds/${id}/${action}`)
      .send(action === 'succeed' ? { bankTransactionId: `TX-${id}` } : { reason: 'account closed' })
      .expect(200);

  describe('two partial refunds of ₩10,000 with ₩3,000 tax-free', () => {
    it('one with an explicit tax-free part, then the rest by default: they add up to the payment to the won', async () => {
      const paymentId = await taxFreePayment();
      const first = (
        await refunds
          .create(paymentId, {
            amount: 4_000,
            taxFreeAmount: 2_000,
            metadata: { returnId: 'ret-1', note: '파손 교환' },
          })
          .expect(201)
      ).body.data as Refund;
      // Taxable 2,000 of the 7,000: VAT(7,000) − VAT(5,000) = 636 − 455.
      expect(first).toMatchObject({
        amount: 4_000,
        taxFreeAmount: 2_000,
        vat: 181,
        suppliedAmount: 1_819,
        status: 'succeeded',
        metadata: { returnId: 'ret-1', note: '파손 교환' },
      });

      // The whole remainder takes the whole remaining tax-free part: ⌊6,000 × 1,000 / 6,000⌋.
      const rest = (await refunds.create(paymentId, {}).expect(201)).body.data as Refund;
      expect(rest).toMatchObject({
        amount: 6_000,
        taxFreeAmount: 1_000,
        vat: 455,
        suppliedAmount: 4_545,
        metadata: {},
      });
      expect(sumOf([first, rest])).toEqual(PAYMENT);
      // ... which is the payment's split as its reads show it.
      expect(await splitOf(paymentId)).toEqual(PAYMENT);

      // The reads show the same, the list too.
      expect((await refunds.get(first.id).expect(200)).body.data).toEqual(first);
      const listed = (await refunds.list({ paymentId }).expect(200)).body.data as Refund[];
      expect(listed).toHaveLength(2);
      expect(listed).toEqual(expect.arrayContaining([first, rest]));
      expect(await heldOf(paymentId)).toEqual({ amount: '10000', tax_free: '3000' });
    });

    it('one with the default share first (the reference example), then the rest with an explicit part', async () => {
      const paymentId = await taxFreePayment();
      const first = (await refunds.create(paymentId, { amount: 5_000 }).expect(201)).body.data as Refund;
      // ⌊5,000 × 3,000 / 10,000⌋ = 1,500 tax-free; taxable 3,500: VAT(7,000) − VAT(3,500) = 636 − 318.
      expect(first).toMatchObject({ taxFreeAmount: 1_500, vat: 318, suppliedAmount: 3_182 });
      const rest = (await refunds.create(paymentId, { amount: 5_000, taxFreeAmount: 1_500 }).expect(201)).body
        .data as Refund;
      expect(sumOf([first, rest])).toEqual(PAYMENT);
    });

    it('a payment without a tax-free part: every refund is taxable and the refunds add up to ₩15,000 → 1,364', async () => {
      const paymentId = await completedPayment(api, merchant, 15_000);
      const parts = [];
      for (const amount of [1, 4_999, 3_333]) {
        parts.push((await refunds.create(paymentId, { amount }).expect(201)).body.data as Refund);
      }
      parts.push((await refunds.create(paymentId, {}).expect(201)).body.data as Refund);
      expect(parts.map((refund) => refund.taxFreeAmount)).toEqual([0, 0, 0, 0]);
      expect(sumOf(parts)).toEqual({ amount: 15_000, taxFreeAmount: 0, vat: 1_364, suppliedAmount: 13_636 });
      expect(sumOf(parts)).toEqual(await splitOf(paymentId));
    });
  });

  describe("the tax-free part's rules", () => {
    /** A refused request changes nothing: the payment holds what it held, and no refund row was made. */
    const expectRefused = async (paymentId: string, body: object, before: { amount: string; tax_free: string }) => {
      expectApiError(await refunds.create(paymentId, body), {
        status: 400,
        code: 'parameter_invalid',
        param: 'taxFreeAmount',
      });
      expect(await heldOf(paymentId)).toEqual(before);
    };

    it('refuses a tax-free part above the refund, above the tax-free part left, or leaving too much taxable', async () => {
      const paymentId = await taxFreePayment();
      const none = { amount: '0', tax_free: '0' };
      await expectRefused(paymentId, { amount: 1_000, taxFreeAmount: 1_001 }, none);
      await expectRefused(paymentId, { amount: 5_000, taxFreeAmount: 3_001 }, none);
      // 8,000 − 999 = 7,001 taxable of the 7,000 there is.
      await expectRefused(paymentId, { amount: 8_000, taxFreeAmount: 999 }, none);
      // The whole remainder (amount omitted) is held to the same rules.
      await expectRefused(paymentId, { taxFreeAmount: 3_001 }, none);
      await expectRefused(paymentId, { taxFreeAmount: 2_999 }, none);
      const message = (await refunds.create(paymentId, { amount: 5_000, taxFreeAmount: 3_001 })).body.error.message;
      expect(message).toContain('(3000 now)');
      expect(message).toContain('(7000 now)');

      // What was refunded counts: after 2,000 tax-free, 1,001 more does not fit, 1,000 does.
      await refunds.create(paymentId, { amount: 2_000, taxFreeAmount: 2_000 }).expect(201);
      const held = { amount: '2000', tax_free: '2000' };
      await expectRefused(paymentId, { amount: 1_001, taxFreeAmount: 1_001 }, held);
      // 8,000 left, 1,000 of it tax-free: 7,001 taxable does not fit.
      await expectRefused(paymentId, { amount: 8_000, taxFreeAmount: 999 }, held);
      expect(
        (await refunds.create(paymentId, { amount: 8_000, taxFreeAmount: 1_000 }).expect(201)).body.data,
      ).toMatchObject({ taxFreeAmount: 1_000, vat: 636, suppliedAmount: 6_364 });
    });

    it.each([[-1], [1.5], ['100'], [null], [true], [Number.MAX_SAFE_INTEGER + 2], [{ won: 1 }]])(
      'refuses taxFreeAmount %j with 400 parameter_invalid before anything is read',
      async (taxFreeAmount) => {
        const paymentId = await taxFreePayment();
        expectApiError(await refunds.create(paymentId, { amount: 1_000, taxFreeAmount }), {
          status: 400,
          code: 'parameter_invalid',
          param: 'taxFreeAmount',
        });
      },
    );

    it('counts pending live refunds as taken, and a refusal is not remembered with its key', async () => {
      const paymentId = await taxFreePayment(true);
      const pending = (
        await liveRefunds.create(paymentId, { amount: 3_000, taxFreeAmount: 3_000, refundAccount: ACCOUNT }).expect(201)
      ).body.data as Refund;
      expect(pending).toMatchObject({ status: 'pending', taxFreeAmount: 3_000, vat: null, suppliedAmount: null });
      const key = idemKey();
      expectApiError(
        await liveRefunds.create(paymentId, { amount: 1_000, taxFreeAmount: 1, refundAccount: ACCOUNT }, key),
        { status: 400, code: 'parameter_invalid', param: 'taxFreeAmount' },
      );
      // The same key with a body that fits is a new request, not a replay of the refusal.
      const taxable = await liveRefunds
        .create(paymentId, { amount: 1_000, taxFreeAmount: 0, refundAccount: ACCOUNT }, key)
        .expect(201);
      expect(taxable.headers['idempotent-replayed']).toBeUndefined();
      expect(await heldOf(paymentId)).toEqual({ amount: '4000', tax_free: '3000' });
    });
  });

  it('a live refund that fails in between gives its tax-free part back, and the rest still add up', async () => {
    const paymentId = await taxFreePayment(true);
    const create = async (body: object) =>
      (await liveRefunds.create(paymentId, { ...body, refundAccount: ACCOUNT }).expect(201)).body.data as Refund;
    const failing = await create({ amount: 2_000, taxFreeAmount: 2_000 });
    // Its default share of what is left: ⌊3,000 × 1,000 / 8,000⌋.
    const second = await create({ amount: 3_000 });
    expect(second.taxFreeAmount).toBe(375);
    expect(await heldOf(paymentId)).toEqual({ amount: '5000', tax_free: '2375' });

    const failed = (await operator(failing.id, 'fail')).body.data as Refund;
    // The refund keeps its own tax-free part; the payment has it back.
    expect(failed).toMatchObject({ status: 'failed', taxFreeAmount: 2_000, vat: null, suppliedAmount: null });
    expect(await heldOf(paymentId)).toEqual({ amount: '3000', tax_free: '375' });

    const succeeded = (await operator(second.id, 'succeed')).body.data as Refund;
    // Taxable 2,625 of 7,000: VAT(7,000) − VAT(4,375) = 636 − 398.
    expect(succeeded).toMatchObject({ status: 'succeeded', taxFreeAmount: 375, vat: 238, suppliedAmount: 2_387 });

    // The whole remainder, 7,000, takes the whole tax-free part left, 2,625 (the failed one's included).
    const last = await create({});
    expect(last).toMatchObject({ amount: 7_000, taxFreeAmount: 2_625 });
    const lastSucceeded = (await operator(last.id, 'succeed')).body.data as Refund;
    expect(sumOf([succeeded, lastSucceeded])).toEqual(PAYMENT);
    expect(await splitOf(paymentId, live)).toEqual(PAYMENT);
  });

  it("the test helper's failed refund gives its tax-free part back too", async () => {
    const paymentId = await taxFreePayment();
    const failed = await api
      .as(merchant)
      .post(`/v1/test-helpers/payments/${paymentId}/failed-refund`)
      .send({ amount: 3_000, taxFreeAmount: 3_000, metadata: { attempt: '1' } })
      .expect(201);
    expect(failed.body.data).toMatchObject({ status: 'failed', taxFreeAmount: 3_000, metadata: { attempt: '1' } });
    expectApiError(
      await api
        .as(merchant)
        .post(`/v1/test-helpers/payments/${paymentId}/failed-refund`)
        .send({ amount: 1_000, taxFreeAmount: 1_001 }),
      { status: 400, code: 'parameter_invalid', param: 'taxFreeAmount' },
    );
    expect(await heldOf(paymentId)).toEqual({ amount: '0', tax_free: '0' });
    const all = (await refunds.create(paymentId, {}).expect(201)).body.data as Refund;
    expect(sumOf([all])).toEqual(PAYMENT);
  });

  it.each(['test', 'live'] as const)(
    'refunds racing for the last tax-free won in %s mode: one takes it, the others are refused',
    async (mode) => {
      const livemode = mode === 'live';
      const client = livemode ? liveRefunds : refunds;
      const account = livemode ? { refundAccount: ACCOUNT } : {};
      const paymentId = await taxFreePayment(livemode);
      await client.create(paymentId, { amount: 2_999, taxFreeAmount: 2_999, ...account }).expect(201);
      const answers = await Promise.all(
        Array.from({ length: 8 }, () =>
          Promise.resolve(client.create(paymentId, { amount: 1, taxFreeAmount: 1, ...account })),
        ),
      );
      expect(answers.filter((answer) => answer.status === 201)).toHaveLength(1);
      for (const answer of answers.filter((one) => one.status !== 201)) {
        expectApiError(answer, { status: 400, code: 'parameter_invalid', param: 'taxFreeAmount' });
      }
      expect(await heldOf(paymentId)).toEqual({ amount: '3000', tax_free: '3000' });
    },
  );

  describe('metadata and the idempotency key', () => {
    it('replays the same body; another tax-free part or other metadata with the key is 422', async () => {
      const paymentId = await taxFreePayment();
      const key = idemKey();
      const body = { amount: 1_000, taxFreeAmount: 500, metadata: { returnId: 'ret-9' } };
      const first = await refunds.create(paymentId, body, key).expect(201);
      const again = await refunds.create(
        paymentId,
        { metadata: { returnId: 'ret-9' }, taxFreeAmount: 500, amount: 1_000 },
        key,
      );
      expect(again.status).toBe(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.text).toBe(first.text);
      for (const other of [
        { ...body, taxFreeAmount: 499 },
        { amount: 1_000, metadata: { returnId: 'ret-9' } },
        { ...body, metadata: { returnId: 'ret-10' } },
        { ...body, metadata: {} },
      ]) {
        expectApiError(await refunds.create(paymentId, other, key), { status: 422, code: 'idempotency_key_reused' });
      }
      expect(await heldOf(paymentId)).toEqual({ amount: '1000', tax_free: '500' });
    });

    it('keeps metadata with the row and out of the events: refund.succeeded carries exactly what it did before', async () => {
      const paymentId = await taxFreePayment();
      const metadata = Object.fromEntries(
        Array.from({ length: 20 }, (_, n) => [`key_${n}.x-${'k'.repeat(30)}`, '값'.repeat(500)]),
      );
      const refund = (await refunds.create(paymentId, { amount: 100, metadata }).expect(201)).body.data as Refund;
      expect(refund.metadata).toEqual(metadata);
      expect((await refunds.get(refund.id).expect(200)).body.data.metadata).toEqual(metadata);
      const [event] = await api.sql<{ body: { data: Record<string, unknown> } }>(
        `SELECT body::jsonb AS body FROM events WHERE refund_id = $1`,
        [refund.id],
      );
      expect(Object.keys(event.body.data).sort()).toEqual(
        ['amount', 'currency', 'orderId', 'paymentId', 'reason', 'refundId', 'status', 'succeededAt'].sort(),
      );
    });

    const tooMany = Object.fromEntries(Array.from({ length: 21 }, (_, n) => [`k${n}`, 'v']));
    it.each([
      ['21 keys', { metadata: tooMany }, 'metadata'],
      ['a 41-character key', { metadata: { ['k'.repeat(41)]: 'v' } }, 'metadata'],
      ['an empty key', { metadata: { '': 'v' } }, 'metadata'],
      ['a key with a space', { metadata: { 'return id': 'v' } }, 'metadata'],
      ['a number value', { metadata: { count: 1 } }, 'metadata.count'],
      ['an object value', { metadata: { nested: { deep: 'x' } } }, 'metadata.nested'],
      ['a null value', { metadata: { gone: null } }, 'metadata.gone'],
      ['a 501-character value', { metadata: { note: 'x'.repeat(501) } }, 'metadata.note'],
      ['a control character', { metadata: { note: 'a\u0000b' } }, 'metadata.note'],
      ['an array', { metadata: ['a'] }, 'metadata'],
      ['null', { metadata: null }, 'metadata'],
      ['a string', { metadata: 'note' }, 'metadata'],
    ])('refuses metadata with %s: 400 parameter_invalid naming it', async (_what, body, param) => {
      const paymentId = await taxFreePayment();
      expectApiError(await refunds.create(paymentId, { amount: 100, ...body }), {
        status: 400,
        code: 'parameter_invalid',
        param,
      });
      expect(await heldOf(paymentId)).toEqual({ amount: '0', tax_free: '0' });
    });

    it('refuses a metadata key given twice and 64 KiB of values, never with a 500, and keeps __proto__ as a key', async () => {
      const paymentId = await taxFreePayment();
      const post = (text: string) =>
        api
          .http()
          .post(`/v1/payments/${paymentId}/refunds`)
          .set('Authorization', `Bearer ${merchant.key}`)
          .set('Idempotency-Key', idemKey())
          .set('Content-Type', 'application/json')
          .send(text);
      expectApiError(await post('{"amount":100,"metadata":{"a":"1","a":"2"}}'), {
        status: 400,
        code: 'parameter_invalid',
        param: 'metadata.a',
      });
      const huge = JSON.stringify({ amount: 100, metadata: { note: 'x'.repeat(64 * 1024) } });
      expectApiError(await post(huge), { status: 413, code: 'payload_too_large' });
      expect(await heldOf(paymentId)).toEqual({ amount: '0', tax_free: '0' });
      // Keys that are JavaScript's own names are the merchant's keys like any other.
      const own = await post('{"amount":100,"metadata":{"__proto__":"p","constructor":"c"}}').expect(201);
      expect(JSON.parse(own.text).data.metadata).toEqual(JSON.parse('{"__proto__":"p","constructor":"c"}'));
    });
  });
});
