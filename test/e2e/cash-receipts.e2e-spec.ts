import { ISO_MILLIS_UTC, expectApiError, idemKey } from '../support/api-expectations';
import { PaymentsApiHarness, paymentBody, type TestMerchant } from '../support/payments-api.harness';
import { completedPayment, refundsClient } from '../support/refunds-client';

type Receipt = Record<string, unknown> & {
  id: string;
  paymentId: string;
  refundId: string | null;
  transactionType: 'issue' | 'cancel';
  type: string;
  identityNumber: string;
  selfIssued: boolean;
  amount: number;
  taxFreeAmount: number;
  vat: number;
  suppliedAmount: number;
  status: 'pending' | 'issued' | 'failed';
  issueNumber: string | null;
  failureReason: string | null;
};

const RECEIPT_FIELDS = [
  'amount',
  'createdAt',
  'failedAt',
  'failureReason',
  'id',
  'identityNumber',
  'issueNumber',
  'issuedAt',
  'livemode',
  'orderId',
  'paymentId',
  'refundId',
  'selfIssued',
  'status',
  'suppliedAmount',
  'taxFreeAmount',
  'transactionType',
  'type',
  'vat',
].sort();

const MOBILE = { type: 'income_deduction', identityNumber: '010-1234-5678' };
/** A business registration number whose check digit is right. */
const BUSINESS = { type: 'expense_proof', identityNumber: '124-81-00998' };
const FAILING = { type: 'income_deduction', identityNumber: '01000000000' };

/**
 * Cash receipts (현금영수증) as a merchant and the operator use them: asked for at create or on a
 * completed payment, issued at once in test mode and through the operator's queue in live mode,
 * cancelled in part with each refund, self-issued for a merchant that must, the buyer's number
 * masked everywhere a merchant looks.
 */
describe('cash receipts', () => {
  let api: PaymentsApiHarness;
  let merchant: TestMerchant;
  let live: TestMerchant;

  beforeAll(async () => {
    api = await PaymentsApiHarness.start({ RATE_LIMIT_PER_SECOND: '0' });
    merchant = await api.merchantWithKey('test');
    live = await api.merchantWithKey('live', { live: true });
  });
  afterAll(() => api.stop());

  const receiptsOf = async (paymentId: string, caller = merchant): Promise<Receipt[]> =>
    (await api.as(caller).get('/v1/cash-receipts').query({ paymentId }).expect(200)).body.data as Receipt[];

  const ask = (paymentId: string, body: unknown, caller = merchant) =>
    api
      .as(caller)
      .post(`/v1/payments/${paymentId}/cash-receipts`)
      .send(body as object);

  const eventsOf = async (paymentId: string, caller = merchant) =>
    (await api.as(caller).get('/v1/events').query({ paymentId }).expect(200)).body.data as {
      type: string;
      data: Record<string, unknown>;
    }[];

  const created = async (extra: Record<string, unknown> = {}, caller = merchant) =>
    (await api.as(caller).post('/v1/payments').set('Idempotency-Key', idemKey()).send(paymentBody(extra)).expect(201))
      .body.data as Record<string, unknown> & { id: string };

  describe('asked for at create', () => {
    it('is no receipt until the payment completes, then one issued receipt of the whole split, with its event', async () => {
      const payment = await created({ amount: 15_000, cashReceipt: MOBILE });
      // The create response keeps exactly its fields: nothing of the receipt is echoed.
      expect(JSON.stringify(payment)).not.toContain('5678');
      expect(await receiptsOf(payment.id)).toEqual([]);

      await api.as(merchant).post(`/v1/test-helpers/payments/${payment.id}/complete`).expect(200);
      const [receipt] = await receiptsOf(payment.id);
      expect(Object.keys(receipt).sort()).toEqual(RECEIPT_FIELDS);
      expect(receipt).toMatchObject({
        paymentId: payment.id,
        refundId: null,
        orderId: payment.orderId,
        transactionType: 'issue',
        type: 'income_deduction',
        identityNumber: '*******5678',
        selfIssued: false,
        amount: 15_000,
        taxFreeAmount: 0,
        vat: 1_364,
        suppliedAmount: 13_636,
        status: 'issued',
        failureReason: null,
        livemode: false,
        failedAt: null,
      });
      expect(receipt.id).toMatch(/^crc_/);
      expect(receipt.issueNumber).toMatch(/^\d{9}$/);
      expect(receipt.issuedAt).toMatch(ISO_MILLIS_UTC);
      expect((await api.as(merchant).get(`/v1/cash-receipts/${receipt.id}`).expect(200)).body.data).toEqual(receipt);

      const issued = (await eventsOf(payment.id)).filter(({ type }) => type === 'cash_receipt.issued');
      expect(issued).toHaveLength(1);
      expect(issued[0].data).toEqual(receipt);
    });

    it('checks the request like any field: 400 naming it, nothing created', async () => {
      const cases: [unknown, string][] = [
        [{ type: 'income_deduction', identityNumber: '02-123-4567' }, 'cashReceipt.identityNumber'],
        [{ type: 'expense_proof', identityNumber: '124-81-00999' }, 'cashReceipt.identityNumber'],
        [{ type: 'expense_proof', identityNumber: '010-1234-5678' }, 'cashReceipt.identityNumber'],
        [{ type: 'receipt', identityNumber: '010-1234-5678' }, 'cashReceipt.type'],
        [{ type: 'income_deduction', identityNumber: 1012345678 }, 'cashReceipt.identityNumber'],
        [['income_deduction'], 'cashReceipt'],
        ['010-1234-5678', 'cashReceipt'],
      ];
      for (const [cashReceipt, param] of cases) {
        const body = paymentBody({ cashReceipt });
        const response = await api.as(merchant).post('/v1/payments').set('Idempotency-Key', idemKey()).send(body);
        expectApiError(response, { status: 400, code: 'parameter_invalid', param });
        const rows = await api.sql('SELECT 1 FROM payments WHERE order_id = $1', [body.orderId]);
        expect(rows).toEqual([]);
      }
      const missing = await api
        .as(merchant)
        .post('/v1/payments')
        .set('Idempotency-Key', idemKey())
        .send(paymentBody({ cashReceipt: { type: 'income_deduction' } }));
      expectApiError(missing, { status: 400, code: 'parameter_missing', param: 'cashReceipt.identityNumber' });
    });

    it("is part of the body the Idempotency-Key stands for, and the stored fingerprint is not the number's bare hash", async () => {
      const key = idemKey();
      const body = paymentBody({ cashReceipt: MOBILE });
      const first = await api.as(merchant).post('/v1/payments').set('Idempotency-Key', key).send(body).expect(201);
      const replay = await api.as(merchant).post('/v1/payments').set('Idempotency-Key', key).send(body).expect(201);
      expect(replay.text).toBe(first.text);
      const other = await api
        .as(merchant)
        .post('/v1/payments')
        .set('Idempotency-Key', key)
        .send({ ...body, cashReceipt: { ...MOBILE, identityNumber: '010-1234-5679' } });
      expectApiError(other, { status: 422, code: 'idempotency_key_reused' });
      const [stored] = await api.sql<{ fingerprint: string }>(
        'SELECT fingerprint FROM idempotency_keys WHERE merchant_id = $1 AND key = $2',
        [merchant.merchantId, key],
      );
      expect(stored.fingerprint).toMatch(/^hmac1:/);
    });
  });

  describe('asked for on a completed payment', () => {
    it('makes one receipt; another while it stands is 409 cash_receipt_exists; a pending payment is 409', async () => {
      const pending = await created();
      expectApiError(await ask(pending.id, BUSINESS), { status: 409, code: 'payment_state_conflict' });

      const paymentId = await completedPayment(api, merchant, 20_000, false, { taxFreeAmount: 2_000 });
      const made = await ask(paymentId, BUSINESS).expect(201);
      expect(made.body.data).toMatchObject({
        transactionType: 'issue',
        type: 'expense_proof',
        identityNumber: '******0998',
        amount: 20_000,
        taxFreeAmount: 2_000,
        vat: 1_636,
        suppliedAmount: 16_364,
        status: 'issued',
      });
      expectApiError(await ask(paymentId, MOBILE), { status: 409, code: 'cash_receipt_exists' });
      expect(await receiptsOf(paymentId)).toHaveLength(1);
    });

    it('fails with the documented failing test number, and then may be asked for again', async () => {
      const paymentId = await completedPayment(api, merchant, 15_000);
      const failed = (await ask(paymentId, FAILING).expect(201)).body.data as Receipt;
      expect(failed).toMatchObject({
        status: 'failed',
        failureReason: 'identity_rejected',
        issueNumber: null,
        issuedAt: null,
        identityNumber: '*******0000',
      });
      expect(failed.failedAt).toMatch(ISO_MILLIS_UTC);
      const again = (await ask(paymentId, MOBILE).expect(201)).body.data as Receipt;
      expect(again.status).toBe('issued');
      const types = (await eventsOf(paymentId)).map(({ type }) => type).filter((type) => type.startsWith('cash_'));
      expect(types.sort()).toEqual(['cash_receipt.failed', 'cash_receipt.issued']);
    });

    it('covers what was paid and not refunded, and nothing is left to cover once all of it is refunded', async () => {
      const refunds = refundsClient(api, merchant);
      const paymentId = await completedPayment(api, merchant, 10_000, false, { taxFreeAmount: 3_000 });
      await refunds.create(paymentId, { amount: 4_000, taxFreeAmount: 1_000 }).expect(201);
      const receipt = (await ask(paymentId, MOBILE).expect(201)).body.data as Receipt;
      expect(receipt).toMatchObject({ amount: 6_000, taxFreeAmount: 2_000, vat: 364, suppliedAmount: 3_636 });

      const whole = await completedPayment(api, merchant, 5_000);
      await refunds.create(whole, {}).expect(201);
      expectApiError(await ask(whole, MOBILE), { status: 409, code: 'payment_state_conflict' });
    });

    it('checks the body: 400 naming type or identityNumber, nothing made', async () => {
      const paymentId = await completedPayment(api, merchant, 15_000);
      expectApiError(await ask(paymentId, { type: 'other', identityNumber: '01012345678' }), {
        status: 400,
        code: 'parameter_invalid',
        param: 'type',
      });
      expectApiError(await ask(paymentId, { type: 'income_deduction', identityNumber: '0101234567a' }), {
        status: 400,
        code: 'parameter_invalid',
        param: 'identityNumber',
      });
      expectApiError(await ask(paymentId, { ...MOBILE, extra: 1 }), {
        status: 400,
        code: 'parameter_unknown',
        param: 'extra',
      });
      expect(await receiptsOf(paymentId)).toEqual([]);
    });

    it('answers 404 for a payment or receipt of another merchant or of the other mode', async () => {
      const other = await api.merchantWithKey('test');
      const paymentId = await completedPayment(api, merchant, 15_000);
      expectApiError(await ask(paymentId, MOBILE, other), { status: 404, code: 'resource_not_found' });
      const receipt = (await ask(paymentId, MOBILE).expect(201)).body.data as Receipt;
      expectApiError(await api.as(other).get(`/v1/cash-receipts/${receipt.id}`), {
        status: 404,
        code: 'resource_not_found',
      });
      const liveKey = await api.issueKey(live.merchantId, 'live');
      const livePayment = await completedPayment(api, live, 15_000, true);
      const liveReceipt = (await ask(livePayment, MOBILE, live).expect(201)).body.data as Receipt;
      const testKey = await api.issueKey(live.merchantId, 'test');
      expectApiError(await api.as(testKey).get(`/v1/cash-receipts/${liveReceipt.id}`), {
        status: 404,
        code: 'resource_not_found',
      });
      expect((await api.as(liveKey).get(`/v1/cash-receipts/${liveReceipt.id}`).expect(200)).body.data.id).toBe(
        liveReceipt.id,
      );
    });
  });

  describe('with refunds', () => {
    it("a cancel receipt per succeeded refund, of its split; a fully refunded payment's cancels add up to its issue receipt", async () => {
      const refunds = refundsClient(api, merchant);
      const payment = await created({ amount: 10_000, taxFreeAmount: 3_000, cashReceipt: MOBILE });
      await api.as(merchant).post(`/v1/test-helpers/payments/${payment.id}/complete`).expect(200);
      const first = (await refunds.create(payment.id, { amount: 3_333 }).expect(201)).body.data;
      await refunds.create(payment.id, { amount: 4_000, taxFreeAmount: 0 }).expect(201);
      await refunds.create(payment.id, {}).expect(201);

      const receipts = await receiptsOf(payment.id);
      const [issue] = receipts.filter(({ transactionType }) => transactionType === 'issue');
      const cancels = receipts.filter(({ transactionType }) => transactionType === 'cancel');
      expect(cancels).toHaveLength(3);
      const firstCancel = cancels.find(({ refundId }) => refundId === first.id)!;
      expect(firstCancel).toMatchObject({
        amount: first.amount,
        taxFreeAmount: first.taxFreeAmount,
        vat: first.vat,
        suppliedAmount: first.suppliedAmount,
        type: 'income_deduction',
        identityNumber: '*******5678',
        status: 'issued',
      });
      for (const field of ['amount', 'taxFreeAmount', 'vat', 'suppliedAmount'] as const)
        expect(cancels.reduce((sum, cancel) => sum + cancel[field], 0)).toBe(issue[field]);
      const events = (await eventsOf(payment.id)).filter(({ type }) => type === 'cash_receipt.issued');
      expect(events).toHaveLength(4);
    });

    it('a refund of a payment without a receipt makes none', async () => {
      const paymentId = await completedPayment(api, merchant, 15_000);
      await refundsClient(api, merchant).create(paymentId, { amount: 1_000 }).expect(201);
      expect(await receiptsOf(paymentId)).toEqual([]);
    });
  });

  describe('live receipts and the operator', () => {
    it("wait in the operator's queue with the number whole, and are issued once with the tax office's number", async () => {
      const payment = await created({ amount: 120_000, cashReceipt: BUSINESS }, live);
      await api.admin().post(`/admin/v1/payments/${payment.id}/confirm-receipt`).expect(200);
      const [receipt] = await receiptsOf(payment.id, live);
      expect(receipt).toMatchObject({
        status: 'pending',
        issueNumber: null,
        livemode: true,
        identityNumber: '******0998',
      });
      expect((await eventsOf(payment.id, live)).map(({ type }) => type)).not.toContain('cash_receipt.issued');

      const queue = (
        await api.admin().get('/admin/v1/cash-receipts').query({ status: 'pending', limit: '100' }).expect(200)
      ).body.data as Receipt[];
      const queued = queue.find(({ id }) => id === receipt.id);
      expect(queued).toMatchObject({ identityNumber: '1248100998', merchantId: live.merchantId });

      const issued = await api
        .admin()
        .post(`/admin/v1/cash-receipts/${receipt.id}/issue`)
        .send({ issueNumber: 'NTS-2026-0001' })
        .expect(200);
      expect(issued.body.data).toMatchObject({
        status: 'issued',
        issueNumber: 'NTS-2026-0001',
        identityNumber: '******0998',
      });
      expectApiError(await api.admin().post(`/admin/v1/cash-receipts/${receipt.id}/fail`).send({ reason: 'late' }), {
        status: 409,
        code: 'cash_receipt_state_conflict',
      });
      expectApiError(
        await api.admin().post(`/admin/v1/cash-receipts/${receipt.id}/issue`).send({ issueNumber: 'bad number!' }),
        { status: 400, code: 'parameter_invalid', param: 'issueNumber' },
      );
      const events = (await eventsOf(payment.id, live)).filter(({ type }) => type === 'cash_receipt.issued');
      expect(events.map(({ data }) => data)).toEqual([issued.body.data]);
    });

    it('fail once with the reason, and 404 for a receipt that does not exist', async () => {
      const paymentId = await completedPayment(api, live, 30_000, true);
      const receipt = (await ask(paymentId, MOBILE, live).expect(201)).body.data as Receipt;
      expect(receipt.status).toBe('pending');
      const failed = await api
        .admin()
        .post(`/admin/v1/cash-receipts/${receipt.id}/fail`)
        .send({ reason: 'identity_rejected' })
        .expect(200);
      expect(failed.body.data).toMatchObject({ status: 'failed', failureReason: 'identity_rejected' });
      expectApiError(
        await api.admin().post('/admin/v1/cash-receipts/crc_000000000000000000000000/fail').send({ reason: 'x' }),
        {
          status: 404,
          code: 'resource_not_found',
        },
      );
      const failedOnes = (
        await api.admin().get('/admin/v1/cash-receipts').query({ status: 'failed', limit: '100' }).expect(200)
      ).body.data as Receipt[];
      expect(failedOnes.map(({ id }) => id)).toContain(receipt.id);
    });
    it('a failed issue receipt takes its pending cancel receipts with it', async () => {
      const paymentId = await completedPayment(api, live, 30_000, true);
      const issue = (await ask(paymentId, MOBILE, live).expect(201)).body.data as Receipt;
      const refund = await refundsClient(api, live)
        .create(paymentId, {
          amount: 10_000,
          refundAccount: { bank: 'KB Kookmin', accountNumber: '110-987-654321', holderName: 'Hong Gildong' },
        })
        .expect(201);
      await api
        .admin()
        .post(`/admin/v1/refunds/${refund.body.data.id}/succeed`)
        .send({ bankTransactionId: `TX-${refund.body.data.id}` })
        .expect(200);
      const [cancel] = (await receiptsOf(paymentId, live)).filter(
        ({ transactionType }) => transactionType === 'cancel',
      );
      expect(cancel).toMatchObject({ status: 'pending', refundId: refund.body.data.id, amount: 10_000 });
      // The tax office cancels what it issued: not before the issue receipt is.
      expectApiError(
        await api.admin().post(`/admin/v1/cash-receipts/${cancel.id}/issue`).send({ issueNumber: 'NTS-EARLY' }),
        { status: 409, code: 'cash_receipt_state_conflict' },
      );

      await api
        .admin()
        .post(`/admin/v1/cash-receipts/${issue.id}/fail`)
        .send({ reason: 'identity_rejected' })
        .expect(200);
      expect((await api.as(live).get(`/v1/cash-receipts/${cancel.id}`).expect(200)).body.data).toMatchObject({
        status: 'failed',
        failureReason: 'issue_receipt_failed',
      });
      const failed = (await eventsOf(paymentId, live)).filter(({ type }) => type === 'cash_receipt.failed');
      expect(failed.map(({ data }) => data.id).sort()).toEqual([cancel.id, issue.id].sort());
    });
  });

  describe('self-issue', () => {
    it('for a merchant marked cashReceiptRequired, at completion of ₩100,000 or more with none asked for', async () => {
      const required = await api.merchantWithKey('test');
      const patched = await api
        .admin()
        .patch(`/admin/v1/merchants/${required.merchantId}`)
        .send({ cashReceiptRequired: true })
        .expect(200);
      expect(patched.body.data.cashReceiptRequired).toBe(true);
      expect((await api.admin().get(`/admin/v1/merchants/${required.merchantId}`).expect(200)).body.data).toMatchObject(
        {
          cashReceiptRequired: true,
        },
      );
      expectApiError(
        await api.admin().patch(`/admin/v1/merchants/${required.merchantId}`).send({ cashReceiptRequired: 'yes' }),
        { status: 400, code: 'parameter_invalid', param: 'cashReceiptRequired' },
      );

      const big = await completedPayment(api, required, 100_000);
      const [receipt] = await receiptsOf(big, required);
      expect(receipt).toMatchObject({
        selfIssued: true,
        type: 'income_deduction',
        identityNumber: '******1234',
        amount: 100_000,
        status: 'issued',
      });
      const small = await completedPayment(api, required, 99_999);
      expect(await receiptsOf(small, required)).toEqual([]);
      // A receipt the buyer asked for is the one made, not a self-issued one.
      const asked = await created({ amount: 150_000, cashReceipt: MOBILE }, required);
      await api.as(required).post(`/v1/test-helpers/payments/${asked.id}/complete`).expect(200);
      expect(await receiptsOf(asked.id, required)).toEqual([
        expect.objectContaining({ selfIssued: false, identityNumber: '*******5678' }),
      ]);
      // A merchant not marked issues nothing unasked.
      expect(await receiptsOf(await completedPayment(api, merchant, 100_000))).toEqual([]);
    });
  });

  describe('the list', () => {
    it('pages newest first, filters by status, and refuses a forged cursor', async () => {
      const lister = await api.merchantWithKey('test');
      for (const body of [MOBILE, FAILING, BUSINESS])
        await ask(await completedPayment(api, lister, 15_000), body, lister).expect(201);
      const first = (await api.as(lister).get('/v1/cash-receipts').query({ limit: '2' }).expect(200)).body;
      expect(first.data).toHaveLength(2);
      expect(first.hasMore).toBe(true);
      const second = (
        await api.as(lister).get('/v1/cash-receipts').query({ limit: '2', cursor: first.nextCursor }).expect(200)
      ).body;
      expect(second).toMatchObject({ hasMore: false, nextCursor: null });
      const all = [...first.data, ...second.data] as Receipt[];
      expect(all.map(({ identityNumber }) => identityNumber)).toEqual(['******0998', '*******0000', '*******5678']);
      const failed = (await api.as(lister).get('/v1/cash-receipts').query({ status: 'failed' }).expect(200)).body.data;
      expect(failed.map(({ status }: Receipt) => status)).toEqual(['failed']);
      expectApiError(
        await api
          .as(lister)
          .get('/v1/cash-receipts')
          .query({ cursor: 'x'.repeat(600) }),
        {
          status: 400,
          code: 'parameter_invalid',
          param: 'cursor',
        },
      );
      expectApiError(await api.as(merchant).get('/v1/cash-receipts').query({ cursor: first.nextCursor }), {
        status: 400,
        code: 'parameter_invalid',
        param: 'cursor',
      });
      expectApiError(await api.as(lister).get('/v1/cash-receipts').query({ status: 'done' }), {
        status: 400,
        code: 'parameter_invalid',
        param: 'status',
      });
    });
  });

  it('makes one receipt of 100 requests at once for one payment; the others are 409 cash_receipt_exists', async () => {
    const paymentId = await completedPayment(api, merchant, 15_000);
    const answers = await Promise.all(Array.from({ length: 100 }, () => ask(paymentId, MOBILE)));
    const statuses = answers.map(({ status }) => status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(99);
    for (const answer of answers.filter(({ status }) => status === 409))
      expect(answer.body.error.code).toBe('cash_receipt_exists');
    expect(await receiptsOf(paymentId)).toHaveLength(1);
    // The refused requests left the payment's request as the winner made it (each sealing is its own).
    const [kept] = await api.sql<{ sealed: string }>(
      'SELECT cash_receipt_identity_sealed AS sealed FROM payments WHERE id = $1',
      [paymentId],
    );
    const [receipt] = await api.sql<{ sealed: string }>(
      'SELECT identity_number_sealed AS sealed FROM cash_receipts WHERE payment_id = $1',
      [paymentId],
    );
    expect(kept.sealed).toBe(receipt.sealed);
  });
});
