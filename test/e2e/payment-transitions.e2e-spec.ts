import { expectApiError, ISO_MILLIS_UTC } from '../support/api-expectations';
import { type PaymentsApiHarness, type TestMerchant } from '../support/payments-api.harness';
import { paymentsClient } from '../support/payments-client';
import { pollUntil } from '../support/poll-until';
import { startWebhookStack, type WebhookStack } from '../support/webhook-stack';
import { type WebhookReceiver } from '../support/webhook-receiver';
import { createPayment, eventIdOf, eventUntil, signatureCheck } from '../support/webhook-scenario';
import { timeFor } from '../support/time-budget';

/** Starting its own database and two apps. */
const START_MS = timeFor({ database: 1, app: 2 });

type Action = 'complete' | 'fail' | 'expire';
const ACTIONS: [Action, string][] = [
  ['complete', 'completed'],
  ['fail', 'failed'],
  ['expire', 'expired'],
];

/** Only a pending payment moves; test helpers and the operator move it. */
describe('payment transitions', () => {
  let stack: WebhookStack;
  let api: PaymentsApiHarness;
  let receiver: WebhookReceiver;
  let merchant: TestMerchant;

  beforeAll(async () => {
    stack = await startWebhookStack('transitions');
    ({ api, receiver } = stack);
  }, START_MS);
  afterAll(() => stack.stop());
  beforeEach(async () => {
    merchant = await api.merchantWithKey('test');
  });

  const helper = (action: Action, paymentId: string, caller: { key: string } = merchant) =>
    api.as(caller).post(`/v1/test-helpers/payments/${paymentId}/${action}`);
  const eventsOf = async (paymentId: string, caller: { key: string } = merchant) =>
    (await api.as(caller).get(`/v1/events?paymentId=${paymentId}`).expect(200)).body.data as unknown[];
  const overdue = (paymentId: string) =>
    api.sql(`UPDATE payments SET expires_at = now() - interval '1 second' WHERE id = $1`, [paymentId]);

  it.each(ACTIONS)('%s answers 200 {data: Payment} with status %s', async (action, status) => {
    const created = await paymentsClient(api, merchant.key).create({
      orderId: `order-${action}-${Date.now()}`,
      customerId: 'customer-1',
      amount: 15000,
      currency: 'KRW',
      returnUrl: 'https://shop.example/return',
    });
    const paymentId = created.body.data.id as string;

    const moved = await helper(action, paymentId);
    expect(moved.status).toBe(200);
    expect(moved.body).toEqual({
      data: {
        ...created.body.data,
        status,
        createdAt: expect.stringMatching(ISO_MILLIS_UTC),
        completedAt: action === 'complete' ? expect.stringMatching(ISO_MILLIS_UTC) : null,
        livemode: false,
        // The Payment of get and list: nothing refunded yet, ₩15,000's VAT split, no metadata.
        refundedAmount: 0,
        taxFreeAmount: 0,
        vat: 1_364,
        suppliedAmount: 13_636,
        metadata: {},
        escrow: null,
      },
    });
    await expect(paymentsClient(api, merchant.key).get(paymentId)).resolves.toMatchObject({
      status: 200,
      body: moved.body,
    });
  });

  it.each(ACTIONS)('%s accepts an empty body with Content-Type: application/json', async (action, status) => {
    const paymentId = await createPayment(api, merchant);
    const moved = await helper(action, paymentId).set('Content-Type', 'application/json');
    expect({ status: moved.status, paymentStatus: moved.body.data?.status }).toEqual({
      status: 200,
      paymentStatus: status,
    });
  });

  it('writes one payment.completed event on complete, with completedAt as its time', async () => {
    const paymentId = await createPayment(api, merchant);
    const completed = (await helper('complete', paymentId).expect(200)).body.data;
    const [event] = (await eventsOf(paymentId)) as { createdAt: string; data: Record<string, unknown> }[];
    expect(event).toMatchObject({
      createdAt: completed.completedAt,
      data: {
        paymentId,
        orderId: completed.orderId,
        amount: 15000,
        currency: 'KRW',
        completedAt: completed.completedAt,
      },
    });
  });

  it.each<[Action, string]>([
    ['fail', 'payment.failed'],
    ['expire', 'payment.expired'],
  ])('%s writes exactly one %s event and no payment.completed', async (action, type) => {
    const paymentId = await createPayment(api, merchant);
    await helper(action, paymentId).expect(200);
    const events = (await eventsOf(paymentId)) as { type: string }[];
    expect(events.map((event) => event.type)).toEqual([type]);
  });

  it.each(ACTIONS.map(([action, status]) => [status, action] as const))(
    'refuses every transition of a payment already %s with 409 payment_state_conflict',
    async (status, first) => {
      const paymentId = await createPayment(api, merchant);
      await helper(first, paymentId).expect(200);

      for (const [action] of ACTIONS) {
        expectApiError(await helper(action, paymentId), { status: 409, code: 'payment_state_conflict' });
      }
      await expect(paymentsClient(api, merchant.key).get(paymentId)).resolves.toMatchObject({
        body: { data: { status } },
      });
      // The first move wrote its one event; the refused ones wrote none.
      const events = (await eventsOf(paymentId)) as { type: string }[];
      expect(events.map((event) => event.type)).toEqual([`payment.${status}`]);
    },
  );

  it("answers 404 resource_not_found for an unknown payment and for another merchant's", async () => {
    const other = await api.merchantWithKey('test');
    const theirs = await createPayment(api, other);
    for (const id of ['pay_000000000000000000000000', theirs]) {
      for (const [action] of ACTIONS) {
        expectApiError(await helper(action, id), { status: 404, code: 'resource_not_found' });
      }
    }
    await expect(paymentsClient(api, other.key).get(theirs)).resolves.toMatchObject({
      body: { data: { status: 'pending' } },
    });
  });

  it('refuses a live key with 403 test_mode_only', async () => {
    const live = await api.merchantWithKey('live', { live: true });
    const livePayment = await createPayment(api, live);
    for (const [action] of ACTIONS) {
      expectApiError(await helper(action, livePayment, live), { status: 403, code: 'test_mode_only' });
    }
    await expect(paymentsClient(api, live.key).get(livePayment)).resolves.toMatchObject({
      body: { data: { status: 'pending' } },
    });
  });

  it('refuses the live key of a merchant that is not live with test_mode_only, not live_mode_locked', async () => {
    const locked = await api.merchantWithKey('live');
    const paymentId = await createPayment(api, await api.issueKey(locked.merchantId, 'test'));
    for (const [action] of ACTIONS) {
      expectApiError(await helper(action, paymentId, locked), { status: 403, code: 'test_mode_only' });
    }
  });

  it('cannot complete a payment past its expiresAt: it shows expired and no event is written', async () => {
    const paymentId = await createPayment(api, merchant);
    await overdue(paymentId);

    expectApiError(await helper('complete', paymentId), { status: 409, code: 'payment_state_conflict' });
    expectApiError(await helper('fail', paymentId), { status: 409, code: 'payment_state_conflict' });
    await expect(paymentsClient(api, merchant.key).get(paymentId)).resolves.toMatchObject({
      body: { data: { status: 'expired', completedAt: null } },
    });
    // The refused moves wrote nothing; the expiry sweep may have recorded the expiry meanwhile (its own event).
    const events = await eventsOf(paymentId);
    expect((events as { type: string }[]).filter((event) => event.type !== 'payment.expired')).toEqual([]);
  });

  it('expires an overdue pending payment in the database within one sweep', async () => {
    const paymentId = await createPayment(api, merchant);
    await overdue(paymentId);

    await pollUntil(
      () => api.sql<{ status: string }>('SELECT status FROM payments WHERE id = $1', [paymentId]),
      ([row]) => row.status === 'expired',
      { intervalMs: 200 },
    );
    await expect(paymentsClient(api, merchant.key).get(paymentId)).resolves.toMatchObject({
      body: { data: { status: 'expired' } },
    });
  });

  describe('operator confirm-receipt', () => {
    it('completes a live payment and delivers its webhook to the live endpoint only', async () => {
      const live = await api.merchantWithKey('live', { live: true });
      const test = await api.issueKey(live.merchantId, 'test');
      const liveEndpoint = await api
        .as(live)
        .put('/v1/webhook-endpoint')
        .send({ url: `${receiver.url}/live` })
        .expect(200);
      await api
        .as(test)
        .put('/v1/webhook-endpoint')
        .send({ url: `${receiver.url}/test` })
        .expect(200);
      const paymentId = await createPayment(api, live);

      const confirmed = await api.admin().post(`/admin/v1/payments/${paymentId}/confirm-receipt`);
      expect(confirmed.status).toBe(200);
      expect(confirmed.body.data).toMatchObject({
        id: paymentId,
        status: 'completed',
        completedAt: expect.stringMatching(ISO_MILLIS_UTC),
        livemode: true,
      });

      const eventId = await eventIdOf(api, live, paymentId);
      const event = await eventUntil(api, live, eventId, (data) => data.deliveryStatus === 'succeeded');
      expect(event).toMatchObject({ livemode: true, data: { paymentId }, attempts: [{ responseStatus: 200 }] });
      const deliveries = receiver.forEvent(eventId);
      expect(deliveries).toHaveLength(1);
      expect(signatureCheck(deliveries[0], liveEndpoint.body.data.signingSecret)).toBe('valid');
      expect(receiver.received.filter((delivery) => delivery.rawBody.includes(paymentId))).toHaveLength(1);
      await expect(eventsOf(paymentId, test)).resolves.toEqual([]);

      expectApiError(await api.admin().post(`/admin/v1/payments/${paymentId}/confirm-receipt`), {
        status: 409,
        code: 'payment_state_conflict',
      });
    });

    it('needs the admin token and a known payment', async () => {
      const live = await api.merchantWithKey('live', { live: true });
      const paymentId = await createPayment(api, live);

      expectApiError(await api.http().post(`/admin/v1/payments/${paymentId}/confirm-receipt`), {
        status: 401,
        code: 'authentication_required',
      });
      expectApiError(await api.as(live).post(`/admin/v1/payments/${paymentId}/confirm-receipt`), {
        status: 401,
        code: 'api_key_invalid',
      });
      expectApiError(await api.admin().post('/admin/v1/payments/pay_000000000000000000000000/confirm-receipt'), {
        status: 404,
        code: 'resource_not_found',
      });
      await expect(paymentsClient(api, live.key).get(paymentId)).resolves.toMatchObject({
        body: { data: { status: 'pending' } },
      });
    });
  });
});
