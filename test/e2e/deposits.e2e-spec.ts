import { randomUUID } from 'node:crypto';
import { expectApiError } from '../support/api-expectations';
import { bankDeposit, createPayment, depositCodeOnScreen } from '../support/pay-screen-client';
import { PaymentsApiHarness, type TestMerchant } from '../support/payments-api.harness';

describe('bank transfers: POST /admin/v1/deposits', () => {
  let api: PaymentsApiHarness;
  let live: TestMerchant;

  beforeAll(async () => {
    api = await PaymentsApiHarness.start();
  });
  afterAll(() => api.stop());
  beforeEach(async () => {
    live = await api.merchantWithKey('live', { live: true });
  });

  async function livePayment(amount = 15_000) {
    const { id, payUrl } = await createPayment(api, live, amount);
    return { id, depositCode: await depositCodeOnScreen(api, payUrl) };
  }

  async function openCases(paymentId: string) {
    return api.sql<{ reason: string; amount: string; status: string }>(
      'SELECT reason, amount, status FROM review_cases WHERE payment_id = $1',
      [paymentId],
    );
  }

  it('completes the payment on the exact code and amount, with its event and settlement record', async () => {
    const payment = await livePayment();
    const recorded = await api
      .admin()
      .post('/admin/v1/deposits')
      .send(bankDeposit({ depositCode: payment.depositCode }));
    expect(recorded.status).toBe(201);
    expect(recorded.body.data).toMatchObject({
      id: expect.stringMatching(/^dep_/),
      outcome: 'matched',
      paymentId: payment.id,
      reviewCaseId: null,
      amount: 15_000,
      livemode: true,
    });

    const stored = await api.as(live).get(`/v1/payments/${payment.id}`).expect(200);
    expect(stored.body.data.status).toBe('completed');
    const events = await api.as(live).get(`/v1/events?paymentId=${payment.id}`).expect(200);
    expect(events.body.data).toHaveLength(1);
    expect(events.body.data[0].type).toBe('payment.completed');
    const settlements = await api.as(live).get('/v1/settlements').expect(200);
    expect(settlements.body.data).toEqual([
      expect.objectContaining({
        paymentId: payment.id,
        grossAmount: 15_000,
        feeAmount: 375,
        vatAmount: 37,
        netAmount: 14_588,
      }),
    ]);
  });

  it('reads the code however the payer typed it (case, spaces, no dash)', async () => {
    const payment = await livePayment();
    const typed = ` ${payment.depositCode.replace('-', ' ').toLowerCase()} `;
    const recorded = await api
      .admin()
      .post('/admin/v1/deposits')
      .send(bankDeposit({ depositCode: typed }))
      .expect(201);
    expect(recorded.body.data.outcome).toBe('matched');
  });

  it.each([
    ['an amount short', { amount: 14_999 }, 'amount_short'],
    ['an amount over', { amount: 15_001 }, 'amount_over'],
  ])('opens a review case for %s and leaves the payment pending', async (_, change, reason) => {
    const payment = await livePayment();
    const recorded = await api
      .admin()
      .post('/admin/v1/deposits')
      .send(bankDeposit({ depositCode: payment.depositCode, ...change }))
      .expect(201);
    expect(recorded.body.data).toMatchObject({ outcome: 'review', paymentId: payment.id, reviewReason: reason });
    expect(recorded.body.data.reviewCaseId).toMatch(/^rev_/);
    const stored = await api.as(live).get(`/v1/payments/${payment.id}`).expect(200);
    expect(stored.body.data.status).toBe('pending');
    await expect(openCases(payment.id)).resolves.toEqual([{ reason, amount: String(change.amount), status: 'open' }]);
  });

  it('opens a review case for an unknown code and for no code at all', async () => {
    const unknown = await api
      .admin()
      .post('/admin/v1/deposits')
      .send(bankDeposit({ depositCode: 'ZZZZ-ZZZZ' }))
      .expect(201);
    expect(unknown.body.data).toMatchObject({
      outcome: 'review',
      reviewReason: 'deposit_code_unknown',
      paymentId: null,
    });
    const garbled = await api
      .admin()
      .post('/admin/v1/deposits')
      .send(bankDeposit({ depositCode: 'ORDER 42' }))
      .expect(201);
    expect(garbled.body.data).toMatchObject({ outcome: 'review', reviewReason: 'deposit_code_unknown' });
    const none = await api.admin().post('/admin/v1/deposits').send(bankDeposit()).expect(201);
    expect(none.body.data).toMatchObject({
      outcome: 'review',
      reviewReason: 'deposit_code_missing',
      depositCode: null,
    });
    const queue = await api.admin().get('/admin/v1/reviews?status=open&limit=100').expect(200);
    const ids = (queue.body.data as { id: string }[]).map((review) => review.id);
    expect(ids).toEqual(expect.arrayContaining([unknown.body.data.reviewCaseId, none.body.data.reviewCaseId]));
  });

  it('sends a second deposit for a paid payment to review, not to a second completion', async () => {
    const payment = await livePayment();
    await api
      .admin()
      .post('/admin/v1/deposits')
      .send(bankDeposit({ depositCode: payment.depositCode }))
      .expect(201);
    const second = await api
      .admin()
      .post('/admin/v1/deposits')
      .send(bankDeposit({ depositCode: payment.depositCode }))
      .expect(201);
    expect(second.body.data).toMatchObject({ outcome: 'review', reviewReason: 'payment_completed' });
    const events = await api.as(live).get(`/v1/events?paymentId=${payment.id}`).expect(200);
    expect(events.body.data).toHaveLength(1);
  });

  it.each([
    ['failed', 'payment_failed'],
    ['expired', 'payment_expired'],
  ])('sends a deposit for a %s payment to review', async (status, reason) => {
    const payment = await livePayment();
    await api.sql(`UPDATE payments SET status = $2 WHERE id = $1`, [payment.id, status]);
    const recorded = await api
      .admin()
      .post('/admin/v1/deposits')
      .send(bankDeposit({ depositCode: payment.depositCode }))
      .expect(201);
    expect(recorded.body.data).toMatchObject({ outcome: 'review', reviewReason: reason, paymentId: payment.id });
  });

  it('sends a deposit arriving after expiresAt to review even before the sweeper ran', async () => {
    const payment = await livePayment();
    await api.sql(`UPDATE payments SET expires_at = now() - interval '1 second' WHERE id = $1`, [payment.id]);
    const recorded = await api
      .admin()
      .post('/admin/v1/deposits')
      .send(bankDeposit({ depositCode: payment.depositCode }))
      .expect(201);
    expect(recorded.body.data.reviewReason).toBe('payment_expired');
  });

  it('records a notification replayed 10 times at once exactly once', async () => {
    const payment = await livePayment();
    const notification = bankDeposit({ depositCode: payment.depositCode });
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => api.admin().post('/admin/v1/deposits').send(notification)),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
    const ids = new Set(answers.map((answer) => answer.body.data.id));
    expect(ids.size).toBe(1);
    for (const answer of answers.filter((a) => a.status === 200)) {
      expect(answer.headers['idempotent-replayed']).toBe('true');
    }
    const rows = await api.sql('SELECT id FROM deposits WHERE bank_transaction_id = $1', [
      notification.bankTransactionId,
    ]);
    expect(rows).toHaveLength(1);
    const events = await api.as(live).get(`/v1/events?paymentId=${payment.id}`).expect(200);
    expect(events.body.data).toHaveLength(1);
    await expect(openCases(payment.id)).resolves.toEqual([]);
  });

  it('refuses the same bank transaction id with different details (422) and changes nothing', async () => {
    const notification = bankDeposit({ depositCode: 'ZZZZ-ZZZZ' });
    await api.admin().post('/admin/v1/deposits').send(notification).expect(201);
    const changed = await api
      .admin()
      .post('/admin/v1/deposits')
      .send({ ...notification, amount: 99_000 });
    expectApiError(changed, { status: 422, code: 'idempotency_key_reused', param: 'bankTransactionId' });
    const [row] = await api.sql<{ amount: string }>('SELECT amount FROM deposits WHERE bank_transaction_id = $1', [
      notification.bankTransactionId,
    ]);
    expect(row.amount).toBe('15000');
  });

  it.each([
    [{ amount: '15000' }, 'parameter_invalid', 'amount'],
    [{ amount: 1.5 }, 'parameter_invalid', 'amount'],
    [{ amount: 0 }, 'parameter_invalid', 'amount'],
    [{ receivedAt: 'yesterday' }, 'parameter_invalid', 'receivedAt'],
    [{ receivedAt: '2026-11-21T05:00:00' }, 'parameter_invalid', 'receivedAt'],
    [{ receivedAt: '2026-13-41T05:00:00Z' }, 'parameter_invalid', 'receivedAt'],
    [{ receivedAt: '2026-02-30T05:00:00Z' }, 'parameter_invalid', 'receivedAt'],
    [{ receivedAt: '2026-11-21T24:00:00Z' }, 'parameter_invalid', 'receivedAt'],
    [{ receivedAt: '0000-01-01T00:00:00Z' }, 'parameter_invalid', 'receivedAt'],
    [{ receivedAt: '2999-01-01T00:00:00+09:00' }, 'parameter_invalid', 'receivedAt'],
    [{ bankTransactionId: 'has space' }, 'parameter_invalid', 'bankTransactionId'],
    [{ bankTransactionId: undefined }, 'parameter_missing', 'bankTransactionId'],
    [{ depositorName: undefined }, 'parameter_missing', 'depositorName'],
    [{ currency: 'KRW' }, 'parameter_unknown', 'currency'],
  ])('refuses %j with %s and records nothing', async (change, code, param) => {
    const body = bankDeposit(change);
    const answer = await api.admin().post('/admin/v1/deposits').send(body);
    expectApiError(answer, { status: 400, code, param });
    if (typeof body.bankTransactionId === 'string') {
      const rows = await api.sql('SELECT 1 FROM deposits WHERE bank_transaction_id = $1', [body.bankTransactionId]);
      expect(rows).toEqual([]);
    }
  });

  it('belongs to the operator: no token is 401, a merchant key is 401', async () => {
    expectApiError(await api.http().post('/admin/v1/deposits').send(bankDeposit()), {
      status: 401,
      code: 'authentication_required',
    });
    const asMerchant = await api
      .http()
      .post('/admin/v1/deposits')
      .set('Authorization', `Bearer ${live.key}`)
      .send(bankDeposit());
    expectApiError(asMerchant, { status: 401, code: 'api_key_invalid' });
  });

  it('never matches a live bank deposit to a test payment', async () => {
    const test = await api.merchantWithKey('test');
    const created = await createPayment(api, test);
    const code = await depositCodeOnScreen(api, created.payUrl);
    const recorded = await api
      .admin()
      .post('/admin/v1/deposits')
      .send(bankDeposit({ depositCode: code }))
      .expect(201);
    expect(recorded.body.data).toMatchObject({ outcome: 'review', reviewReason: 'deposit_code_unknown' });
    const stored = await api.as(test).get(`/v1/payments/${created.id}`).expect(200);
    expect(stored.body.data.status).toBe('pending');
  });
});

describe('test-mode deposits: POST /v1/test-helpers/…', () => {
  let api: PaymentsApiHarness;
  let test: TestMerchant;

  beforeAll(async () => {
    api = await PaymentsApiHarness.start();
    test = await api.merchantWithKey('test');
  });
  afterAll(() => api.stop());

  async function testPayment(amount = 15_000): Promise<string> {
    return (await createPayment(api, test, amount)).id;
  }

  it('completes a payment by a simulated matching deposit', async () => {
    const id = await testPayment();
    const recorded = await api.as(test).post(`/v1/test-helpers/payments/${id}/deposit`).expect(201);
    expect(recorded.body.data).toMatchObject({ outcome: 'matched', paymentId: id, livemode: false, amount: 15_000 });
    const stored = await api.as(test).get(`/v1/payments/${id}`).expect(200);
    expect(stored.body.data.status).toBe('completed');
  });

  it('shows a mismatched deposit going to review', async () => {
    const id = await testPayment();
    const recorded = await api
      .as(test)
      .post(`/v1/test-helpers/payments/${id}/deposit`)
      .send({ amount: 10_000 })
      .expect(201);
    expect(recorded.body.data).toMatchObject({ outcome: 'review', reviewReason: 'amount_short', paymentId: id });
    const review = await api.admin().get(`/admin/v1/reviews/${recorded.body.data.reviewCaseId}`).expect(200);
    expect(review.body.data).toMatchObject({ livemode: false, merchantId: test.merchantId, status: 'open' });
  });

  it('takes a free-form deposit with any code, and replays by bankTransactionId', async () => {
    const body = { amount: 5_000, depositCode: 'ABCD-EFGH', bankTransactionId: `t-${randomUUID()}` };
    const first = await api.as(test).post('/v1/test-helpers/deposits').send(body).expect(201);
    expect(first.body.data).toMatchObject({ outcome: 'review', reviewReason: 'deposit_code_unknown' });
    const again = await api.as(test).post('/v1/test-helpers/deposits').send(body).expect(200);
    expect(again.body.data.id).toBe(first.body.data.id);
  });

  it('is for test keys only', async () => {
    const live = await api.merchantWithKey('live', { live: true });
    expectApiError(await api.as(live).post('/v1/test-helpers/deposits').send({ amount: 1 }), {
      status: 403,
      code: 'test_mode_only',
    });
  });

  it("cannot reach another merchant's payment", async () => {
    const id = await testPayment();
    const other = await api.merchantWithKey('test');
    expectApiError(await api.as(other).post(`/v1/test-helpers/payments/${id}/deposit`), {
      status: 404,
      code: 'resource_not_found',
    });
  });
});
