import { expectApiError, idemKey, ISO_MILLIS_UTC } from '../support/api-expectations';
import { paymentBody, type PaymentsApiHarness, type TestMerchant } from '../support/payments-api.harness';
import { pollUntil } from '../support/poll-until';
import { bankDeposit, createPayment, newVoucherPin, openVoucherPage } from '../support/pay-screen-client';
import { completedPayment, refundsClient } from '../support/refunds-client';
import { timeFor } from '../support/time-budget';
import type { WebhookReceiver } from '../support/webhook-receiver';
import { startWebhookStack, type WebhookStack } from '../support/webhook-stack';

/** Starting its own database and two apps. */
const START_MS = timeFor({ database: 1, app: 2 });

const REFUND_FIELDS = [
  'id',
  'paymentId',
  'orderId',
  'amount',
  'currency',
  'reason',
  'status',
  'livemode',
  'createdAt',
  'succeededAt',
  'failedAt',
  'failureReason',
  // A refund's VAT split and the merchant's own keys.
  'taxFreeAmount',
  'vat',
  'suppliedAmount',
  'metadata',
].sort();

const ACCOUNT = { bank: 'KB Kookmin', accountNumber: '110-987-654321', holderName: 'Hong Gildong' };

/** The merchant API, the operator's queue, events and settlement records. */
describe('refunds', () => {
  let stack: WebhookStack;
  let api: PaymentsApiHarness;
  let receiver: WebhookReceiver;
  let merchant: TestMerchant;
  let refunds: ReturnType<typeof refundsClient>;

  beforeAll(async () => {
    stack = await startWebhookStack('refunds');
    ({ api, receiver } = stack);
  }, START_MS);
  afterAll(() => stack.stop());
  beforeEach(async () => {
    merchant = await api.merchantWithKey('test');
    refunds = refundsClient(api, merchant);
  });

  const accountSealedOf = async (refundId: string) =>
    (
      await api.sql<{ sealed: string | null }>('SELECT refund_account_sealed AS sealed FROM refunds WHERE id = $1', [
        refundId,
      ])
    )[0].sealed;

  const paymentOf = async (id: string, caller: TestMerchant = merchant) =>
    (await api.as(caller).get(`/v1/payments/${id}`).expect(200)).body.data as Record<string, unknown>;

  describe('in test mode', () => {
    it('refunds the whole payment when amount is omitted: 201 succeeded at once, refundedAmount on get and list', async () => {
      const paymentId = await completedPayment(api, merchant, 15_000);
      const before = await paymentOf(paymentId);
      expect(before.refundedAmount).toBe(0);

      const created = await refunds.create(paymentId, { reason: 'customer returned it' }).expect(201);
      const refund = created.body.data;
      expect(Object.keys(created.body)).toEqual(['data']);
      expect(Object.keys(refund).sort()).toEqual(REFUND_FIELDS);
      expect(refund).toEqual({
        id: expect.stringMatching(/^rfd_[0-9A-Za-z]{20,}$/),
        paymentId,
        orderId: before.orderId,
        amount: 15_000,
        currency: 'KRW',
        reason: 'customer returned it',
        status: 'succeeded',
        livemode: false,
        createdAt: expect.stringMatching(ISO_MILLIS_UTC),
        succeededAt: expect.stringMatching(ISO_MILLIS_UTC),
        failedAt: null,
        failureReason: null,
        // The whole of a ₩15,000 payment without a tax-free part: its whole split, 1,364 and 13,636.
        taxFreeAmount: 0,
        vat: 1_364,
        suppliedAmount: 13_636,
        metadata: {},
      });
      expect(created.headers['idempotent-replayed']).toBeUndefined();

      expect(await paymentOf(paymentId)).toMatchObject({ status: 'completed', refundedAmount: 15_000 });
      const listed = await api.as(merchant).get('/v1/payments').expect(200);
      expect(listed.body.data.find((payment: { id: string }) => payment.id === paymentId).refundedAmount).toBe(15_000);
      expect((await refunds.get(refund.id).expect(200)).body).toEqual({ data: refund });
    });

    it('leaves the create response of a payment exactly as it was (no refundedAmount)', async () => {
      const created = await api
        .as(merchant)
        .post('/v1/payments')
        .set('Idempotency-Key', idemKey())
        .send(paymentBody())
        .expect(201);
      expect(Object.keys(created.body.data).sort()).toEqual(
        ['amount', 'currency', 'expiresAt', 'id', 'orderId', 'payUrl', 'status'].sort(),
      );
    });

    it('refunds in parts; the omitted amount is the remainder; nothing left or too much is 409 refund_amount_exceeded', async () => {
      const paymentId = await completedPayment(api, merchant, 10_000);
      expect((await refunds.create(paymentId, { amount: 3_000 }).expect(201)).body.data.amount).toBe(3_000);
      expectApiError(await refunds.create(paymentId, { amount: 7_001 }), {
        status: 409,
        code: 'refund_amount_exceeded',
      });
      expect((await refunds.create(paymentId, { amount: 2_000 }).expect(201)).body.data.amount).toBe(2_000);
      expect((await refunds.create(paymentId, {}).expect(201)).body.data.amount).toBe(5_000);
      expectApiError(await refunds.create(paymentId, {}), { status: 409, code: 'refund_amount_exceeded' });
      expectApiError(await refunds.create(paymentId, { amount: 1 }), { status: 409, code: 'refund_amount_exceeded' });
      // Above any payment's amount is still an amount: more than the remainder, not a bad parameter.
      for (const amount of [10_000_000_001, Number.MAX_SAFE_INTEGER]) {
        expectApiError(await refunds.create(paymentId, { amount }), { status: 409, code: 'refund_amount_exceeded' });
      }
      expect(await paymentOf(paymentId)).toMatchObject({ status: 'completed', refundedAmount: 10_000 });
      const [row] = await api.sql<{ refund_held_amount: string; refunded_amount: string }>(
        'SELECT refund_held_amount, refunded_amount FROM payments WHERE id = $1',
        [paymentId],
      );
      expect(row).toEqual({ refund_held_amount: '10000', refunded_amount: '10000' });
    });

    it.each(['pending', 'failed', 'canceled'] as const)(
      'refuses a %s payment with 409 payment_state_conflict',
      async (state) => {
        const created = await api
          .as(merchant)
          .post('/v1/payments')
          .set('Idempotency-Key', idemKey())
          .send(paymentBody())
          .expect(201);
        const paymentId = created.body.data.id as string;
        if (state === 'failed') await api.as(merchant).post(`/v1/test-helpers/payments/${paymentId}/fail`).expect(200);
        if (state === 'canceled') await api.as(merchant).post(`/v1/payments/${paymentId}/cancel`).expect(200);
        expectApiError(await refunds.create(paymentId, { amount: 100 }), {
          status: 409,
          code: 'payment_state_conflict',
        });
        expect(await api.sql('SELECT 1 FROM refunds WHERE payment_id = $1', [paymentId])).toEqual([]);
      },
    );

    it('replays the same key and body byte for byte, even after the amount ran out; another body or payment is 422', async () => {
      const paymentId = await completedPayment(api, merchant, 5_000);
      const key = idemKey();
      const first = await refunds.create(paymentId, { amount: 5_000, reason: 'r' }, key).expect(201);
      const again = await refunds.create(paymentId, { reason: 'r', amount: 5_000 }, key).expect(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.text).toBe(first.text);
      expect(await api.sql('SELECT 1 FROM refunds WHERE payment_id = $1', [paymentId])).toHaveLength(1);

      expectApiError(await refunds.create(paymentId, { amount: 4_000, reason: 'r' }, key), {
        status: 422,
        code: 'idempotency_key_reused',
      });
      const other = await completedPayment(api, merchant, 5_000);
      expectApiError(await refunds.create(other, { amount: 5_000, reason: 'r' }, key), {
        status: 422,
        code: 'idempotency_key_reused',
      });
      expect((await paymentOf(other)).refundedAmount).toBe(0);
    });

    it('refusals are not remembered: the key works once the refund is possible', async () => {
      const created = await api
        .as(merchant)
        .post('/v1/payments')
        .set('Idempotency-Key', idemKey())
        .send(paymentBody({ amount: 1_000 }))
        .expect(201);
      const paymentId = created.body.data.id as string;
      const key = idemKey();
      expectApiError(await refunds.create(paymentId, {}, key), { status: 409, code: 'payment_state_conflict' });
      await api.as(merchant).post(`/v1/test-helpers/payments/${paymentId}/complete`).expect(200);
      expect((await refunds.create(paymentId, {}, key).expect(201)).body.data.amount).toBe(1_000);
    });

    it('needs an Idempotency-Key of 1 to 255 printable ASCII characters', async () => {
      const paymentId = await completedPayment(api, merchant, 1_000);
      const missing = await api.as(merchant).post(`/v1/payments/${paymentId}/refunds`).send({ amount: 100 });
      expectApiError(missing, { status: 400, code: 'idempotency_key_missing' });
      expectApiError(await refunds.create(paymentId, { amount: 100 }, 'x'.repeat(256)), {
        status: 400,
        code: 'idempotency_key_invalid',
      });
      expect((await paymentOf(paymentId)).refundedAmount).toBe(0);
    });

    it.each([
      [{ amount: 0 }, 'parameter_invalid', 'amount'],
      [{ amount: -5 }, 'parameter_invalid', 'amount'],
      [{ amount: 1.5 }, 'parameter_invalid', 'amount'],
      [{ amount: '100' }, 'parameter_invalid', 'amount'],
      [{ amount: 1e300 }, 'parameter_invalid', 'amount'],
      [{ amount: Number.MAX_SAFE_INTEGER + 1 }, 'parameter_invalid', 'amount'],
      // Omitted means absent: an explicit null is not "the whole remainder", nor no reason or account.
      [{ amount: null }, 'parameter_invalid', 'amount'],
      [{ amount: null, reason: 'size' }, 'parameter_invalid', 'amount'],
      [{ reason: null }, 'parameter_invalid', 'reason'],
      [{ amount: 100, refundAccount: null }, 'parameter_invalid', 'refundAccount'],
      [{ reason: '' }, 'parameter_invalid', 'reason'],
      [{ reason: 'x'.repeat(201) }, 'parameter_invalid', 'reason'],
      [{ reason: 'bell\u0007' }, 'parameter_invalid', 'reason'],
      [{ reason: 42 }, 'parameter_invalid', 'reason'],
      [{ refundAccount: 'KB 110' }, 'parameter_invalid', 'refundAccount'],
      [{ refundAccount: [ACCOUNT] }, 'parameter_invalid', 'refundAccount'],
      [{ refundAccount: { ...ACCOUNT, bank: '' } }, 'parameter_invalid', 'refundAccount.bank'],
      [{ refundAccount: { ...ACCOUNT, holderName: 'x'.repeat(65) } }, 'parameter_invalid', 'refundAccount.holderName'],
      [{ refundAccount: { bank: 'KB', holderName: 'Hong' } }, 'parameter_missing', 'refundAccount.accountNumber'],
      [{ refundAccount: { ...ACCOUNT, iban: 'x' } }, 'parameter_unknown', 'refundAccount.iban'],
      [{ amount: 100, currency: 'KRW' }, 'parameter_unknown', 'currency'],
    ])('rejects %j with 400 %s (%s)', async (body, code, param) => {
      const paymentId = await completedPayment(api, merchant, 1_000);
      expectApiError(await refunds.create(paymentId, body), { status: 400, code, param });
      expect((await paymentOf(paymentId)).refundedAmount).toBe(0);
    });

    it('takes a refund account in test mode without ever echoing it, and keeps none (the refund succeeded at once)', async () => {
      const paymentId = await completedPayment(api, merchant, 1_000);
      const created = await refunds.create(paymentId, { refundAccount: ACCOUNT }).expect(201);
      expect(created.text).not.toContain(ACCOUNT.accountNumber);
      expect(await accountSealedOf(created.body.data.id)).toBeNull();
    });

    it("answers 404 for another merchant's payment and refund, the other mode's, and malformed ids", async () => {
      const paymentId = await completedPayment(api, merchant, 1_000);
      const refundId = (await refunds.create(paymentId, { amount: 100 }).expect(201)).body.data.id as string;
      const stranger = refundsClient(api, await api.merchantWithKey('test'));
      expectApiError(await stranger.create(paymentId, { amount: 100 }), { status: 404, code: 'resource_not_found' });
      expectApiError(await stranger.get(refundId), { status: 404, code: 'resource_not_found' });
      const liveKey = await api.issueKey(merchant.merchantId, 'live');
      await api.sql(`UPDATE merchants SET status = 'live' WHERE id = $1`, [merchant.merchantId]);
      const live = refundsClient(api, liveKey);
      expectApiError(await live.create(paymentId, { amount: 100, refundAccount: ACCOUNT }), {
        status: 404,
        code: 'resource_not_found',
      });
      expectApiError(await live.get(refundId), { status: 404, code: 'resource_not_found' });
      expectApiError(await refunds.get('rfd_nope'), { status: 404, code: 'resource_not_found' });
      expectApiError(await refunds.create('pay_nope', {}), { status: 404, code: 'resource_not_found' });
      expect((await paymentOf(paymentId)).refundedAmount).toBe(100);
    });

    it('lists refunds newest first with keyset paging, filters by payment and status, and refuses a forged cursor', async () => {
      const first = await completedPayment(api, merchant, 10_000);
      const second = await completedPayment(api, merchant, 10_000);
      const ids: string[] = [];
      for (const paymentId of [first, second, first]) {
        ids.push((await refunds.create(paymentId, { amount: 1_000 }).expect(201)).body.data.id as string);
      }
      const page1 = await refunds.list({ limit: '2' }).expect(200);
      expect(page1.body.data.map((refund: { id: string }) => refund.id)).toEqual([ids[2], ids[1]]);
      expect(page1.body.hasMore).toBe(true);
      const page2 = await refunds.list({ limit: '2', cursor: page1.body.nextCursor }).expect(200);
      expect(page2.body).toEqual({ data: [expect.objectContaining({ id: ids[0] })], hasMore: false, nextCursor: null });

      const ofFirst = await refunds.list({ paymentId: first }).expect(200);
      expect(ofFirst.body.data.map((refund: { id: string }) => refund.id)).toEqual([ids[2], ids[0]]);
      expect((await refunds.list({ status: 'pending' }).expect(200)).body.data).toEqual([]);
      expect((await refunds.list({ status: 'succeeded' }).expect(200)).body.data).toHaveLength(3);

      const forged = Buffer.from(JSON.stringify([new Date().toISOString(), 'rfd_AAAAAAAAAAAAAAAAAAAAAAAA'])).toString(
        'base64url',
      );
      expectApiError(await refunds.list({ cursor: forged }), {
        status: 400,
        code: 'parameter_invalid',
        param: 'cursor',
      });
      expectApiError(await refunds.list({ cursor: 'bm90LWEtY3Vyc29y' }), {
        status: 400,
        code: 'parameter_invalid',
        param: 'cursor',
      });
      expectApiError(await refunds.list({ status: 'done' }), {
        status: 400,
        code: 'parameter_invalid',
        param: 'status',
      });
      expectApiError(await refunds.list({ sort: 'asc' }), { status: 400, code: 'parameter_unknown', param: 'sort' });
      // Another merchant's cursor names a refund it cannot see.
      const stranger = refundsClient(api, await api.merchantWithKey('test'));
      expectApiError(await stranger.list({ cursor: page1.body.nextCursor }), {
        status: 400,
        code: 'parameter_invalid',
        param: 'cursor',
      });
    });
  });

  describe('events', () => {
    const eventsOf = async (paymentId: string) =>
      (await api.as(merchant).get(`/v1/events?paymentId=${paymentId}`).expect(200)).body.data as {
        id: string;
        type: string;
        deliveryStatus: string;
        data: Record<string, unknown>;
      }[];

    it('sends refund.succeeded with exactly its data when the endpoint enables it, listed with the payment events', async () => {
      await api
        .as(merchant)
        .put('/v1/webhook-endpoint')
        .send({ url: receiver.url, enabledEvents: ['payment.completed', 'refund.succeeded', 'refund.failed'] })
        .expect(200);
      const paymentId = await completedPayment(api, merchant, 8_000);
      const refund = (await refunds.create(paymentId, { amount: 3_000, reason: 'damaged' }).expect(201)).body.data;

      const events = await pollUntil(
        () => eventsOf(paymentId),
        (all) => all.length === 2,
      );
      const event = events.find((one) => one.type === 'refund.succeeded');
      expect(event?.data).toEqual({
        refundId: refund.id,
        paymentId,
        orderId: refund.orderId,
        amount: 3_000,
        currency: 'KRW',
        status: 'succeeded',
        reason: 'damaged',
        succeededAt: refund.succeededAt,
      });
      const delivered = await pollUntil(
        async () => receiver.received.filter((delivery) => delivery.headers['service-event-id'] === event?.id),
        (deliveries) => deliveries.length > 0,
      );
      const body = JSON.parse(delivered[0].rawBody.toString('utf8'));
      expect(body).toEqual({
        id: event?.id,
        type: 'refund.succeeded',
        createdAt: refund.succeededAt,
        data: event?.data,
      });
      // One event per refund and type, whatever else happens to the payment.
      expect(await api.sql('SELECT 1 FROM events WHERE refund_id = $1', [refund.id])).toHaveLength(1);
    });

    it('records refund events as skipped when the endpoint does not enable them (the default)', async () => {
      await api.as(merchant).put('/v1/webhook-endpoint').send({ url: receiver.url }).expect(200);
      const paymentId = await completedPayment(api, merchant, 8_000);
      const refund = (await refunds.create(paymentId, {}).expect(201)).body.data;
      const events = await eventsOf(paymentId);
      const event = events.find((one) => one.type === 'refund.succeeded');
      expect(event).toMatchObject({ deliveryStatus: 'skipped', data: { refundId: refund.id, amount: 8_000 } });
      const outbox = await api.sql(`SELECT 1 FROM outbox WHERE payload LIKE $1`, [`%${event?.id}%`]);
      expect(outbox).toEqual([]);
    });
  });

  describe('in live mode', () => {
    let live: TestMerchant;
    let liveRefunds: ReturnType<typeof refundsClient>;
    beforeEach(async () => {
      live = await api.merchantWithKey('live', { live: true });
      liveRefunds = refundsClient(api, live);
    });

    const queue = async (status = 'pending') =>
      (await api.admin().get(`/admin/v1/refunds?status=${status}&limit=100`).expect(200)).body.data as {
        id: string;
        refundAccount: unknown;
      }[];

    it('needs a refund account: 400 parameter_missing refundAccount', async () => {
      const paymentId = await completedPayment(api, live, 5_000, true);
      expectApiError(await liveRefunds.create(paymentId, { amount: 1_000 }), {
        status: 400,
        code: 'parameter_missing',
        param: 'refundAccount',
      });
    });

    it('stays pending until the operator sends the money; succeed is exactly once; the account is for the operator only', async () => {
      const paymentId = await completedPayment(api, live, 5_000, true);
      const created = await liveRefunds
        .create(paymentId, { amount: 2_000, refundAccount: ACCOUNT, reason: 'size' })
        .expect(201);
      const refund = created.body.data;
      expect(Object.keys(refund).sort()).toEqual(REFUND_FIELDS);
      expect(refund).toMatchObject({ status: 'pending', livemode: true, succeededAt: null, amount: 2_000 });
      expect(created.text).not.toContain(ACCOUNT.accountNumber);
      expect((await liveRefunds.get(refund.id).expect(200)).text).not.toContain(ACCOUNT.accountNumber);
      expect((await paymentOf(paymentId, live)).refundedAmount).toBe(0);
      // Held: the remainder is what pending and succeeded refunds leave.
      expectApiError(await liveRefunds.create(paymentId, { amount: 3_001, refundAccount: ACCOUNT }), {
        status: 409,
        code: 'refund_amount_exceeded',
      });
      // Nothing stores the account in plain text: not the row, not the remembered answer or fingerprint.
      const stored = await api.sql<{ text: string }>(
        `SELECT r::text AS text FROM refunds r WHERE id = $1
         UNION ALL SELECT k::text FROM idempotency_keys k WHERE merchant_id = $2`,
        [refund.id, live.merchantId],
      );
      for (const row of stored) expect(row.text).not.toContain(ACCOUNT.accountNumber);
      expect(await accountSealedOf(refund.id)).toMatch(/^v1:[0-9a-f]{8}:/);

      const queued = (await queue()).find((one) => one.id === refund.id);
      expect(queued).toMatchObject({ ...refund, refundAccount: ACCOUNT, bankTransactionId: null });

      const succeeded = await api
        .admin()
        .post(`/admin/v1/refunds/${refund.id}/succeed`)
        .send({ bankTransactionId: 'BANK-TX-1' })
        .expect(200);
      // The API's Refund, exactly: no account, no bank transaction id.
      expect(Object.keys(succeeded.body.data).sort()).toEqual(REFUND_FIELDS);
      expect(succeeded.body.data).toMatchObject({
        id: refund.id,
        status: 'succeeded',
        succeededAt: expect.stringMatching(ISO_MILLIS_UTC),
      });
      expect(succeeded.text).not.toContain(ACCOUNT.accountNumber);
      expectApiError(
        await api.admin().post(`/admin/v1/refunds/${refund.id}/succeed`).send({ bankTransactionId: 'BANK-TX-2' }),
        { status: 409, code: 'refund_state_conflict' },
      );
      expectApiError(await api.admin().post(`/admin/v1/refunds/${refund.id}/fail`).send({ reason: 'late' }), {
        status: 409,
        code: 'refund_state_conflict',
      });
      expect((await paymentOf(paymentId, live)).refundedAmount).toBe(2_000);
      expect((await queue()).some((one) => one.id === refund.id)).toBe(false);
      // The account served its purpose: forgotten, and the queue shows none for a refund no longer pending.
      expect((await queue('succeeded')).find((one) => one.id === refund.id)).toMatchObject({ refundAccount: null });
      expect(await accountSealedOf(refund.id)).toBeNull();
      expect(await api.sql(`SELECT type FROM events WHERE refund_id = $1`, [refund.id])).toEqual([
        { type: 'refund.succeeded' },
      ]);
      const records = await api.sql(`SELECT 1 FROM settlements WHERE refund_id = $1`, [refund.id]);
      expect(records).toHaveLength(1);
    });

    it('records one bank transaction for one refund only: a second refund with it is 409 and stays pending', async () => {
      const paymentId = await completedPayment(api, live, 5_000, true);
      const first = (await liveRefunds.create(paymentId, { amount: 1_000, refundAccount: ACCOUNT }).expect(201)).body
        .data;
      const second = (await liveRefunds.create(paymentId, { amount: 2_000, refundAccount: ACCOUNT }).expect(201)).body
        .data;
      const bankTransactionId = `TX-1-${first.id}`;
      await api.admin().post(`/admin/v1/refunds/${first.id}/succeed`).send({ bankTransactionId }).expect(200);

      const taken = await api.admin().post(`/admin/v1/refunds/${second.id}/succeed`).send({ bankTransactionId });
      expectApiError(taken, { status: 409, code: 'refund_state_conflict', param: 'bankTransactionId' });
      expect(taken.body.error.message).toContain(`already recorded for refund ${first.id}`);
      expect((await liveRefunds.get(second.id).expect(200)).body.data).toMatchObject({
        status: 'pending',
        succeededAt: null,
      });
      expect((await queue()).some((one) => one.id === second.id)).toBe(true);
      expect((await paymentOf(paymentId, live)).refundedAmount).toBe(1_000);
      expect(await api.sql(`SELECT 1 FROM events WHERE refund_id = $1`, [second.id])).toEqual([]);
      expect(await api.sql(`SELECT 1 FROM settlements WHERE refund_id = $1`, [second.id])).toEqual([]);
      // Another transfer still pays it.
      await api
        .admin()
        .post(`/admin/v1/refunds/${second.id}/succeed`)
        .send({ bankTransactionId: `TX-2-${second.id}` })
        .expect(200);
    });

    it('a failed refund frees its amount and writes refund.failed once', async () => {
      const paymentId = await completedPayment(api, live, 5_000, true);
      const refund = (await liveRefunds.create(paymentId, { refundAccount: ACCOUNT }).expect(201)).body.data;
      expect(refund.amount).toBe(5_000);
      expectApiError(await liveRefunds.create(paymentId, { amount: 1, refundAccount: ACCOUNT }), {
        status: 409,
        code: 'refund_amount_exceeded',
      });
      const failed = await api
        .admin()
        .post(`/admin/v1/refunds/${refund.id}/fail`)
        .send({ reason: 'account closed' })
        .expect(200);
      expect(Object.keys(failed.body.data).sort()).toEqual(REFUND_FIELDS);
      expect(failed.body.data).toMatchObject({
        status: 'failed',
        failedAt: expect.stringMatching(ISO_MILLIS_UTC),
        failureReason: 'account closed',
      });
      expectApiError(await api.admin().post(`/admin/v1/refunds/${refund.id}/fail`).send({ reason: 'again' }), {
        status: 409,
        code: 'refund_state_conflict',
      });
      expect((await liveRefunds.get(refund.id).expect(200)).body.data.status).toBe('failed');
      expect(await accountSealedOf(refund.id)).toBeNull();
      expect((await queue('failed')).find((one) => one.id === refund.id)).toMatchObject({ refundAccount: null });
      const events = await api.sql<{ type: string; body: string }>(
        `SELECT type, body FROM events WHERE refund_id = $1`,
        [refund.id],
      );
      expect(events.map((event) => event.type)).toEqual(['refund.failed']);
      expect(JSON.parse(events[0].body).data).toEqual({
        refundId: refund.id,
        paymentId,
        orderId: refund.orderId,
        amount: 5_000,
        currency: 'KRW',
        status: 'failed',
        reason: null,
        failedAt: failed.body.data.failedAt,
      });
      expect(await api.sql(`SELECT 1 FROM settlements WHERE refund_id = $1`, [refund.id])).toEqual([]);
      // The amount is refundable again.
      expect((await liveRefunds.create(paymentId, { refundAccount: ACCOUNT }).expect(201)).body.data.amount).toBe(
        5_000,
      );
    });

    it('the operator routes check their input and know no other refund', async () => {
      const paymentId = await completedPayment(api, live, 5_000, true);
      const refund = (await liveRefunds.create(paymentId, { refundAccount: ACCOUNT }).expect(201)).body.data;
      expectApiError(await api.admin().post(`/admin/v1/refunds/${refund.id}/succeed`).send({}), {
        status: 400,
        code: 'parameter_missing',
        param: 'bankTransactionId',
      });
      expectApiError(await api.admin().post(`/admin/v1/refunds/${refund.id}/fail`).send({ reason: '' }), {
        status: 400,
        code: 'parameter_invalid',
        param: 'reason',
      });
      expectApiError(
        await api
          .admin()
          .post('/admin/v1/refunds/rfd_AAAAAAAAAAAAAAAAAAAAAAAA/succeed')
          .send({ bankTransactionId: 'x' }),
        { status: 404, code: 'resource_not_found' },
      );
      expectApiError(await api.admin().get('/admin/v1/refunds?status=open'), {
        status: 400,
        code: 'parameter_invalid',
        param: 'status',
      });
      expectApiError(await api.admin().get('/admin/v1/refunds?cursor=bm90LWEtY3Vyc29y'), {
        status: 400,
        code: 'parameter_invalid',
        param: 'cursor',
      });
      for (const bankTransactionId of ['', 'x'.repeat(129), 'line\nbreak', 42]) {
        expectApiError(await api.admin().post(`/admin/v1/refunds/${refund.id}/succeed`).send({ bankTransactionId }), {
          status: 400,
          code: 'parameter_invalid',
          param: 'bankTransactionId',
        });
      }
      // The bank's id as the bank prints it: spaces and Hangul are printable text.
      const printed = '국민은행 이체 2026-11-25 #418';
      await api.admin().post(`/admin/v1/refunds/${refund.id}/succeed`).send({ bankTransactionId: printed }).expect(200);
      const [row] = await api.sql<{ bank_transaction_id: string }>(
        'SELECT bank_transaction_id FROM refunds WHERE id = $1',
        [refund.id],
      );
      expect(row.bank_transaction_id).toBe(printed);
      expectApiError(await api.as(live).get('/admin/v1/refunds'), { status: 401, code: 'api_key_invalid' });
    });

    it('refunds only the part not paid with vouchers: voucher value is never paid out by transfer', async () => {
      const payment = await createPayment(api, live, 15_000);
      const pin = newVoucherPin();
      await api
        .admin()
        .post('/admin/v1/vouchers')
        .send({ vouchers: [{ pin, faceValue: 10_000, kind: 'culture' }] })
        .expect(201);
      await (await openVoucherPage(api, payment.payUrl)).submit(pin).expect(200);
      const waiting = await api.http().get(new URL(payment.payUrl).pathname).expect(200);
      const depositCode = /id="deposit-code">([A-Z0-9-]{9})</.exec(waiting.text)![1];
      await api
        .admin()
        .post('/admin/v1/deposits')
        .send(bankDeposit({ amount: 5_000, depositCode }))
        .expect(201);
      expect((await paymentOf(payment.id, live)).status).toBe('completed');

      const tooMuch = await liveRefunds.create(payment.id, { amount: 5_001, refundAccount: ACCOUNT });
      expectApiError(tooMuch, { status: 409, code: 'refund_amount_exceeded', param: 'amount' });
      expect(tooMuch.body.error.message).toMatch(/vouchers, which is not refundable by transfer/);
      // Omitted: the whole remainder is the part paid by transfer.
      const whole = await liveRefunds.create(payment.id, { refundAccount: ACCOUNT }).expect(201);
      expect(whole.body.data.amount).toBe(5_000);
      expectApiError(await liveRefunds.create(payment.id, { amount: 1, refundAccount: ACCOUNT }), {
        status: 409,
        code: 'refund_amount_exceeded',
      });
      const [row] = await api.sql<{ refund_held_amount: string }>(
        'SELECT refund_held_amount FROM payments WHERE id = $1',
        [payment.id],
      );
      expect(row.refund_held_amount).toBe('5000');
    });

    it('pages the queue oldest first', async () => {
      const paymentId = await completedPayment(api, live, 5_000, true);
      for (let n = 0; n < 3; n++)
        await liveRefunds.create(paymentId, { amount: 100, refundAccount: ACCOUNT }).expect(201);
      const all: string[] = [];
      let cursor: string | null = null;
      do {
        const query: string = `/admin/v1/refunds?limit=2${cursor ? `&cursor=${cursor}` : ''}`;
        const response = await api.admin().get(query).expect(200);
        all.push(...response.body.data.map((refund: { id: string }) => refund.id));
        cursor = response.body.nextCursor as string | null;
      } while (cursor);
      const [first, ...rest] = await api.sql<{ id: string }>(
        `SELECT id FROM refunds WHERE status = 'pending' ORDER BY created_at, id`,
      );
      expect(all).toEqual([first, ...rest].map((row) => row.id));
    });
  });

  describe('settlement records', () => {
    const recordsOf = async (paymentId: string) => {
      const list = await api.as(merchant).get('/v1/settlements?limit=100').expect(200);
      return (list.body.data as { paymentId: string; type: string }[]).filter(
        (record) => record.paymentId === paymentId,
      );
    };

    it('adds a negative refund record per succeeded refund; a full refund nets to zero; the CSV ends with type, refund_id and payout_status', async () => {
      const paymentId = await completedPayment(api, merchant, 15_000);
      const first = (await refunds.create(paymentId, { amount: 399 }).expect(201)).body.data;
      const second = (await refunds.create(paymentId, {}).expect(201)).body.data;

      const records = await recordsOf(paymentId);
      expect(records.map((record) => record.type)).toEqual(['payment', 'refund', 'refund']);
      const [payment, refund1, refund2] = records as unknown as Record<string, number | string | null>[];
      expect(payment).toMatchObject({
        type: 'payment',
        refundId: null,
        grossAmount: 15_000,
        feeAmount: 375,
        vatAmount: 37,
      });
      expect(refund1).toMatchObject({
        type: 'refund',
        refundId: first.id,
        grossAmount: -399,
        feeBps: 250,
        feeAmount: -9,
        vatAmount: 0,
        netAmount: -390,
        completedAt: first.succeededAt,
        payoutRule: expect.any(String),
      });
      expect(refund2).toMatchObject({ type: 'refund', refundId: second.id, grossAmount: -14_601 });
      for (const column of ['grossAmount', 'feeAmount', 'vatAmount', 'netAmount']) {
        expect(records.reduce((sum, record) => sum + (record as unknown as Record<string, number>)[column], 0)).toBe(0);
      }
      for (const record of [refund1, refund2]) {
        const row = record as Record<string, number>;
        expect(row.grossAmount).toBe(row.feeAmount + row.vatAmount + row.netAmount);
      }

      // Pages of one record each walk the payment's records in order, cursors of refund records included.
      const walked: (string | null)[] = [];
      let cursor: string | undefined;
      do {
        const response = await api
          .as(merchant)
          .get('/v1/settlements')
          .query({ limit: '1', ...(cursor ? { cursor } : {}) })
          .expect(200);
        walked.push(...response.body.data.map((record: { refundId: string | null }) => record.refundId));
        cursor = response.body.nextCursor ?? undefined;
      } while (cursor);
      expect(walked).toEqual([null, first.id, second.id]);

      const salesDate = payment.salesDate as string;
      const csv = await api.as(merchant).get(`/v1/settlements/export?date=${salesDate}`).expect(200);
      const [header, ...lines] = csv.text.trim().split('\r\n');
      expect(header.split(',').slice(-3)).toEqual(['type', 'refund_id', 'payout_status']);
      expect(lines.map((line) => line.split(',').slice(-3))).toEqual([
        ['payment', '', 'scheduled'],
        ['refund', first.id, 'scheduled'],
        ['refund', second.id, 'scheduled'],
      ]);
    });

    it('charges the refund at the fee rate of the payment record, not the merchant terms of today', async () => {
      const paymentId = await completedPayment(api, merchant, 10_000);
      await api.sql('UPDATE merchants SET fee_bps = 900 WHERE id = $1', [merchant.merchantId]);
      const refund = (await refunds.create(paymentId, {}).expect(201)).body.data;
      const [record] = await api.sql<{ fee_bps: number; fee_amount: string }>(
        'SELECT fee_bps, fee_amount FROM settlements WHERE refund_id = $1',
        [refund.id],
      );
      expect(record).toEqual({ fee_bps: 250, fee_amount: '-250' });
    });
  });
});
