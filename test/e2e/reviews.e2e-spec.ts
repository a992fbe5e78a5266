import { expectApiError } from '../support/api-expectations';
import type { PaymentsApiHarness, TestMerchant } from '../support/payments-api.harness';
import {
  bankDeposit,
  createPayment,
  depositCodeOnScreen,
  newVoucherPin,
  openVoucherPage,
} from '../support/pay-screen-client';
import { pollUntil } from '../support/poll-until';
import { startWebhookStack, type WebhookStack } from '../support/webhook-stack';
import { timeFor } from '../support/time-budget';

/** Starting its own database and two apps. */
const START_MS = timeFor({ database: 1, app: 2 });

describe('the review queue: GET /admin/v1/reviews, POST /admin/v1/reviews/{id}/resolve', () => {
  let stack: WebhookStack;
  let api: PaymentsApiHarness;
  let live: TestMerchant;

  beforeAll(async () => {
    stack = await startWebhookStack('reviews');
    api = stack.api;
  }, START_MS);
  afterAll(() => stack.stop());
  beforeEach(async () => {
    live = await api.merchantWithKey('live', { live: true });
    await api.as(live).put('/v1/webhook-endpoint').send({ url: stack.receiver.url }).expect(200);
  });

  /** A live payment and a deposit for it that did not match: `amount` off by what the test needs. */
  async function paymentInReview(depositAmount: number) {
    const { id: paymentId, payUrl } = await createPayment(api, live);
    const depositCode = await depositCodeOnScreen(api, payUrl);
    const deposit = await api
      .admin()
      .post('/admin/v1/deposits')
      .send(bankDeposit({ amount: depositAmount, depositCode, depositorName: '김철수' }))
      .expect(201);
    return { paymentId, reviewId: deposit.body.data.reviewCaseId as string, depositId: deposit.body.data.id as string };
  }

  async function snapshot(paymentId: string) {
    const [payment] = await api.sql('SELECT status, completed_at FROM payments WHERE id = $1', [paymentId]);
    const events = await api.sql('SELECT id FROM events WHERE payment_id = $1', [paymentId]);
    const settlements = await api.sql('SELECT 1 FROM settlements WHERE payment_id = $1', [paymentId]);
    return { payment, events: events.length, settlements: settlements.length };
  }

  it('lists open cases with the deposit behind them', async () => {
    const { reviewId, depositId, paymentId } = await paymentInReview(14_000);
    const queue = await api.admin().get('/admin/v1/reviews?status=open&limit=100').expect(200);
    const listed = (queue.body.data as { id: string }[]).find((review) => review.id === reviewId);
    expect(listed).toEqual({
      id: reviewId,
      status: 'open',
      livemode: true,
      source: 'deposit',
      reason: 'amount_short',
      amount: 14_000,
      merchantId: live.merchantId,
      paymentId,
      deposit: {
        id: depositId,
        bankTransactionId: expect.any(String),
        amount: 14_000,
        depositCode: expect.stringMatching(/^[A-Z0-9]{4}-[A-Z0-9]{4}$/),
        depositorName: '김철수',
        receivedAt: expect.any(String),
      },
      createdAt: expect.any(String),
      resolution: null,
    });
  });

  it('completes the payment on "complete", even after expiresAt, and the webhook arrives', async () => {
    const { paymentId, reviewId } = await paymentInReview(14_000);
    // The customer's bank fee was short; meanwhile the payment expired.
    await api.sql(`UPDATE payments SET status = 'expired', expires_at = now() WHERE id = $1`, [paymentId]);
    const resolved = await api
      .admin()
      .post(`/admin/v1/reviews/${reviewId}/resolve`)
      .send({ action: 'complete', resolvedBy: 'ops@payhook.test', note: 'customer paid the bank fee' })
      .expect(200);
    expect(resolved.body.data).toMatchObject({
      status: 'resolved',
      resolution: {
        action: 'complete',
        resolvedBy: 'ops@payhook.test',
        note: 'customer paid the bank fee',
        refundAmount: null,
        resolvedAt: expect.stringMatching(/Z$/),
      },
    });
    const payment = await api.as(live).get(`/v1/payments/${paymentId}`).expect(200);
    expect(payment.body.data.status).toBe('completed');
    const events = await api.as(live).get(`/v1/events?paymentId=${paymentId}`).expect(200);
    const eventId = events.body.data[0].id as string;
    const [delivery] = await pollUntil(
      async () => stack.receiver.forEvent(eventId),
      (deliveries) => deliveries.length === 1,
    );
    expect(JSON.parse(delivery.rawBody.toString('utf8'))).toMatchObject({
      type: 'payment.completed',
      data: { paymentId, amount: 15_000 },
    });
    await expect(snapshot(paymentId)).resolves.toMatchObject({ events: 1, settlements: 1 });
  });

  it.each(['reject', 'refund'] as const)('changes nothing else on "%s"', async (action) => {
    const { paymentId, reviewId } = await paymentInReview(20_000);
    const before = await snapshot(paymentId);
    const resolved = await api
      .admin()
      .post(`/admin/v1/reviews/${reviewId}/resolve`)
      .send({ action, resolvedBy: 'ops@payhook.test' })
      .expect(200);
    expect(resolved.body.data.resolution).toMatchObject({
      action,
      resolvedBy: 'ops@payhook.test',
      note: null,
      refundAmount: action === 'refund' ? 20_000 : null,
    });
    await expect(snapshot(paymentId)).resolves.toEqual(before);
    expect(before).toMatchObject({ payment: { status: 'pending' }, events: 0, settlements: 0 });
  });

  it('records the excess of a deposit over the amount as owed back when completing', async () => {
    const { paymentId, reviewId } = await paymentInReview(20_000);
    const resolved = await api
      .admin()
      .post(`/admin/v1/reviews/${reviewId}/resolve`)
      .send({ action: 'complete', resolvedBy: 'ops' })
      .expect(200);
    expect(resolved.body.data.resolution).toMatchObject({ action: 'complete', refundAmount: 5_000 });
    await expect(snapshot(paymentId)).resolves.toMatchObject({ payment: { status: 'completed' }, settlements: 1 });
  });

  it('counts vouchers already held when working out what a completed over-deposit leaves owed', async () => {
    const { id: paymentId, payUrl } = await createPayment(api, live);
    const pin = newVoucherPin();
    await api
      .admin()
      .post('/admin/v1/vouchers')
      .send({ vouchers: [{ pin, faceValue: 10_000, kind: 'culture' }] })
      .expect(201);
    await (await openVoucherPage(api, payUrl)).submit(pin).expect(200);
    // ₩5,000 was due; the payer sent the full ₩15,000.
    const deposit = await api
      .admin()
      .post('/admin/v1/deposits')
      .send(bankDeposit({ amount: 15_000, depositCode: await depositCodeOnScreen(api, payUrl) }))
      .expect(201);
    expect(deposit.body.data.reviewReason).toBe('amount_over');
    const resolved = await api
      .admin()
      .post(`/admin/v1/reviews/${deposit.body.data.reviewCaseId}/resolve`)
      .send({ action: 'complete', resolvedBy: 'ops' })
      .expect(200);
    expect(resolved.body.data.resolution.refundAmount).toBe(10_000);
    const [voucher] = await api.sql('SELECT status FROM vouchers WHERE payment_id = $1', [paymentId]);
    expect(voucher).toEqual({ status: 'redeemed' });
  });

  it('resolves a case once: a second resolution is 409 and keeps the first', async () => {
    const { reviewId } = await paymentInReview(14_000);
    await api
      .admin()
      .post(`/admin/v1/reviews/${reviewId}/resolve`)
      .send({ action: 'reject', resolvedBy: 'a' })
      .expect(200);
    const again = await api
      .admin()
      .post(`/admin/v1/reviews/${reviewId}/resolve`)
      .send({ action: 'complete', resolvedBy: 'b' });
    expectApiError(again, { status: 409, code: 'review_state_conflict' });
    const shown = await api.admin().get(`/admin/v1/reviews/${reviewId}`).expect(200);
    expect(shown.body.data.resolution).toMatchObject({ action: 'reject', resolvedBy: 'a' });
  });

  it('lets two operators race: exactly one resolution wins', async () => {
    const { reviewId, paymentId } = await paymentInReview(14_000);
    const answers = await Promise.all(
      ['complete', 'refund', 'complete', 'reject'].map((action, i) =>
        api
          .admin()
          .post(`/admin/v1/reviews/${reviewId}/resolve`)
          .send({ action, resolvedBy: `operator-${i}` }),
      ),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409, 409, 409]);
    const shown = await api.admin().get(`/admin/v1/reviews/${reviewId}`).expect(200);
    const winner = answers.find((answer) => answer.status === 200)!;
    expect(shown.body.data.resolution).toEqual(winner.body.data.resolution);
    const completed = winner.body.data.resolution.action === 'complete';
    await expect(snapshot(paymentId)).resolves.toMatchObject({
      payment: { status: completed ? 'completed' : 'pending' },
      events: completed ? 1 : 0,
    });
  });

  it('will not complete a payment that is already paid: refund instead', async () => {
    const { paymentId, reviewId } = await paymentInReview(14_000);
    await api.admin().post(`/admin/v1/payments/${paymentId}/confirm-receipt`).expect(200);
    const answer = await api
      .admin()
      .post(`/admin/v1/reviews/${reviewId}/resolve`)
      .send({ action: 'complete', resolvedBy: 'ops' });
    expectApiError(answer, { status: 409, code: 'payment_state_conflict' });
    const shown = await api.admin().get(`/admin/v1/reviews/${reviewId}`).expect(200);
    expect(shown.body.data.status).toBe('open');
  });

  it('completes the payment an operator names for a deposit with an unknown code', async () => {
    const { id: paymentId } = await createPayment(api, live);
    const deposit = await api
      .admin()
      .post('/admin/v1/deposits')
      .send(bankDeposit({ depositorName: '이영희' }))
      .expect(201);
    const reviewId = deposit.body.data.reviewCaseId as string;
    const missing = await api
      .admin()
      .post(`/admin/v1/reviews/${reviewId}/resolve`)
      .send({ action: 'complete', resolvedBy: 'ops' });
    expectApiError(missing, { status: 400, code: 'parameter_missing', param: 'paymentId' });
    await api
      .admin()
      .post(`/admin/v1/reviews/${reviewId}/resolve`)
      .send({ action: 'complete', resolvedBy: 'ops', paymentId })
      .expect(200);
    const payment = await api.as(live).get(`/v1/payments/${paymentId}`).expect(200);
    expect(payment.body.data.status).toBe('completed');
    const [row] = await api.sql('SELECT payment_id FROM deposits WHERE id = $1', [deposit.body.data.id]);
    expect(row).toEqual({ payment_id: paymentId });
  });

  it('cannot send live money to a test payment', async () => {
    const test = await api.merchantWithKey('test');
    const created = await createPayment(api, test);
    const deposit = await api
      .admin()
      .post('/admin/v1/deposits')
      .send(bankDeposit({ depositorName: 'x' }))
      .expect(201);
    const answer = await api
      .admin()
      .post(`/admin/v1/reviews/${deposit.body.data.reviewCaseId}/resolve`)
      .send({ action: 'complete', resolvedBy: 'ops', paymentId: created.id });
    expectApiError(answer, { status: 404, code: 'resource_not_found', param: 'paymentId' });
  });

  it.each([
    [{ action: 'approve', resolvedBy: 'ops' }, 'parameter_invalid', 'action'],
    [{ resolvedBy: 'ops' }, 'parameter_missing', 'action'],
    [{ action: 'reject' }, 'parameter_missing', 'resolvedBy'],
    [{ action: 'reject', resolvedBy: 'ops', extra: 1 }, 'parameter_unknown', 'extra'],
  ])('refuses %j and leaves the case open', async (body, code, param) => {
    const { reviewId } = await paymentInReview(14_000);
    expectApiError(await api.admin().post(`/admin/v1/reviews/${reviewId}/resolve`).send(body), {
      status: 400,
      code,
      param,
    });
    const shown = await api.admin().get(`/admin/v1/reviews/${reviewId}`).expect(200);
    expect(shown.body.data.status).toBe('open');
  });

  it('answers 404 for an unknown case and 400 for a forged cursor', async () => {
    expectApiError(await api.admin().get('/admin/v1/reviews/rev_AAAAAAAAAAAAAAAAAAAAAAAA'), {
      status: 404,
      code: 'resource_not_found',
    });
    expectApiError(await api.admin().get('/admin/v1/reviews?cursor=bm9wZQ'), {
      status: 400,
      code: 'parameter_invalid',
      param: 'cursor',
    });
  });

  it('pages the queue newest first with a cursor', async () => {
    const first = await paymentInReview(1_000);
    const second = await paymentInReview(2_000);
    const page1 = await api.admin().get('/admin/v1/reviews?limit=1').expect(200);
    expect(page1.body.data[0].id).toBe(second.reviewId);
    expect(page1.body.hasMore).toBe(true);
    const page2 = await api.admin().get(`/admin/v1/reviews?limit=1&cursor=${page1.body.nextCursor}`).expect(200);
    expect(page2.body.data[0].id).toBe(first.reviewId);
  });
});
