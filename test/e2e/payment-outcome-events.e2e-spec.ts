import { verifyWebhook } from '@payhook/sdk';
import { PaymentExpirySweeper } from '../../apps/payments-api/src/money/payments/payment-expiry.sweeper';
import { expectApiError } from '../support/api-expectations';
import type { PaymentsApiHarness, TestMerchant } from '../support/payments-api.harness';
import { pollUntil } from '../support/poll-until';
import { createPayment } from '../support/webhook-scenario';
import { startWebhookStack, type WebhookStack } from '../support/webhook-stack';
import type { WebhookReceiver } from '../support/webhook-receiver';
import { timeFor } from '../support/time-budget';

/** Starting its own database and two apps. */
const START_MS = timeFor({ database: 1, app: 2 });

const ALL_TYPES = ['payment.completed', 'payment.failed', 'payment.canceled', 'payment.expired'];

/**
 * One event per move out of
 * pending, of its type, written with the move; the endpoint's enabledEvents decide what is sent.
 */
describe('payment outcome events and merchant cancel', () => {
  let stack: WebhookStack;
  let api: PaymentsApiHarness;
  let receiver: WebhookReceiver;
  let merchant: TestMerchant;

  beforeAll(async () => {
    stack = await startWebhookStack('outcomes');
    ({ api, receiver } = stack);
  }, START_MS);
  afterAll(() => stack.stop());
  beforeEach(async () => {
    merchant = await api.merchantWithKey('test');
  });

  const putEndpoint = (body: object) => api.as(merchant).put('/v1/webhook-endpoint').send(body);
  const eventsOf = async (paymentId: string) =>
    (await api.as(merchant).get(`/v1/events?paymentId=${paymentId}`).expect(200)).body.data as {
      id: string;
      type: string;
      deliveryStatus: string;
      data: Record<string, unknown>;
    }[];
  const deliveredFor = (paymentId: string) =>
    receiver.received.filter((delivery) => delivery.rawBody.toString('utf8').includes(paymentId));
  const helper = (paymentId: string, action: 'complete' | 'fail' | 'expire') =>
    api.as(merchant).post(`/v1/test-helpers/payments/${paymentId}/${action}`);
  const cancel = (paymentId: string, caller: TestMerchant = merchant) =>
    api.as(caller).post(`/v1/payments/${paymentId}/cancel`);

  describe('with every type enabled', () => {
    let secret: string;
    beforeEach(async () => {
      const endpoint = await putEndpoint({ url: receiver.url, enabledEvents: ALL_TYPES }).expect(200);
      expect(endpoint.body.data.enabledEvents).toEqual(ALL_TYPES);
      secret = endpoint.body.data.signingSecret as string;
    });

    it.each([
      ['fail', 'payment.failed', 'failed', 'failedAt'],
      ['expire', 'payment.expired', 'expired', 'expiredAt'],
      ['cancel', 'payment.canceled', 'canceled', 'canceledAt'],
    ] as const)(
      '%s writes one %s event with the payment as it ended, sent signed',
      async (action, type, status, at) => {
        const paymentId = await createPayment(api, merchant);
        const payment = (await api.as(merchant).get(`/v1/payments/${paymentId}`).expect(200)).body.data;
        const before = Date.now();
        const moved =
          action === 'cancel' ? await cancel(paymentId).expect(200) : await helper(paymentId, action).expect(200);
        expect(moved.body.data.status).toBe(status);

        const [event] = await pollUntil(
          () => eventsOf(paymentId),
          (events) => events.length > 0,
        );
        expect(await eventsOf(paymentId)).toHaveLength(1);
        expect(event).toMatchObject({ type, deliveryStatus: expect.stringMatching(/pending|succeeded/) });
        expect(Object.keys(event.data).sort()).toEqual(
          ['amount', 'currency', 'orderId', 'paymentId', 'status', at].sort(),
        );
        expect(event.data).toMatchObject({
          paymentId,
          orderId: payment.orderId,
          amount: 15000,
          currency: 'KRW',
          status,
        });
        expect(Date.parse(event.data[at] as string)).toBeGreaterThanOrEqual(before - 1_000);

        const [delivery] = await pollUntil(
          async () => deliveredFor(paymentId),
          (deliveries) => deliveries.length === 1,
        );
        const verified = verifyWebhook(delivery.rawBody, delivery.headers['service-signature'] as string, secret);
        expect(verified).toMatchObject({ id: event.id, type, data: { status } });
      },
    );

    it('keeps payment.completed data exactly as it was', async () => {
      const paymentId = await createPayment(api, merchant);
      await helper(paymentId, 'complete').expect(200);
      const [event] = await eventsOf(paymentId);
      expect(event.type).toBe('payment.completed');
      expect(Object.keys(event.data)).toEqual(['paymentId', 'orderId', 'amount', 'currency', 'completedAt']);
    });

    it('writes payment.expired from the sweeper, at the instant the payment expired', async () => {
      const paymentId = await createPayment(api, merchant);
      const [{ expires_at: expiresAt }] = await api.sql<{ expires_at: Date }>(
        `UPDATE payments SET expires_at = now() - interval '1 minute' WHERE id = $1 RETURNING expires_at`,
        [paymentId],
      );
      await api.app.get(PaymentExpirySweeper).runOnce();
      const events = await eventsOf(paymentId);
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ type: 'payment.expired', data: { expiredAt: expiresAt.toISOString() } });
      // A second sweep finds nothing more to expire or announce.
      await api.app.get(PaymentExpirySweeper).runOnce();
      expect(await eventsOf(paymentId)).toHaveLength(1);
    });
  });

  describe('with the default enabledEvents', () => {
    it('records the other outcomes as skipped and sends nothing; redeliver sends one anyway', async () => {
      const endpoint = await putEndpoint({ url: receiver.url }).expect(200);
      expect(endpoint.body.data.enabledEvents).toEqual(['payment.completed']);
      const paymentId = await createPayment(api, merchant);
      await helper(paymentId, 'fail').expect(200);
      const [event] = await eventsOf(paymentId);
      expect(event).toMatchObject({ type: 'payment.failed', deliveryStatus: 'skipped' });
      // Nothing to send is decided in the transaction that recorded the event: no delivery, no message.
      const owed = await api.sql<{ deliveries: number; messages: number }>(
        `SELECT (SELECT count(*)::int FROM webhook_deliveries WHERE event_id = $1) AS deliveries,
                (SELECT count(*)::int FROM outbox WHERE payload::jsonb ->> 'eventId' = $1) AS messages`,
        [event.id],
      );
      expect(owed).toEqual([{ deliveries: 0, messages: 0 }]);

      await api.as(merchant).post(`/v1/events/${event.id}/redeliver`).expect(202);
      await pollUntil(
        async () => deliveredFor(paymentId),
        (deliveries) => deliveries.length === 1,
      );
      await pollUntil(
        () => eventsOf(paymentId),
        ([one]) => one.deliveryStatus === 'succeeded',
      );
    });

    it("keeps an endpoint's own enabledEvents when a PUT leaves them out", async () => {
      await putEndpoint({ url: receiver.url, enabledEvents: ['payment.failed', 'payment.completed'] }).expect(200);
      const again = await putEndpoint({ url: `${receiver.url}?again` }).expect(200);
      // Kept in the order of the types, without repeats.
      expect(again.body.data.enabledEvents).toEqual(['payment.completed', 'payment.failed']);
    });

    it.each([
      [{ enabledEvents: ['payment.refunded'] }],
      [{ enabledEvents: 'payment.completed' }],
      [{ enabledEvents: [] }],
      [{ enabledEvents: [7] }],
    ])('refuses %j with 400 parameter_invalid on enabledEvents, and changes nothing', async (extra) => {
      await putEndpoint({ url: receiver.url }).expect(200);
      const refused = await putEndpoint({ url: `${receiver.url}?changed`, ...extra });
      expectApiError(refused, { status: 400, code: 'parameter_invalid', param: 'enabledEvents' });
      const stored = await api.as(merchant).get('/v1/webhook-endpoint').expect(200);
      expect(stored.body.data).toMatchObject({ url: receiver.url, enabledEvents: ['payment.completed'] });
    });
  });

  describe('POST /v1/payments/{id}/cancel', () => {
    it('cancels a pending payment, answers the same canceled payment again, and the screen sends the user back', async () => {
      const paymentId = await createPayment(api, merchant);
      const first = await cancel(paymentId).expect(200);
      expect(first.body.data).toMatchObject({ id: paymentId, status: 'canceled' });
      const again = await cancel(paymentId).expect(200);
      expect(again.body.data).toEqual(first.body.data);
      expect((await eventsOf(paymentId)).map((event) => event.type)).toEqual(['payment.canceled']);

      const screen = await api
        .http()
        .get(new URL(first.body.data.payUrl as string).pathname)
        .expect(303);
      expect(new URL(screen.headers.location).searchParams.get('status')).toBe('canceled');
    });

    it("answers 409 payment_state_conflict for a payment that is no longer pending, and 404 for another merchant's", async () => {
      const paymentId = await createPayment(api, merchant);
      await helper(paymentId, 'complete').expect(200);
      expectApiError(await cancel(paymentId), { status: 409, code: 'payment_state_conflict' });
      const other = await api.merchantWithKey('test');
      const theirs = await createPayment(api, other);
      expectApiError(await cancel(theirs), { status: 404, code: 'resource_not_found' });
      expect((await api.as(other).get(`/v1/payments/${theirs}`).expect(200)).body.data.status).toBe('pending');
    });

    it('lets exactly one of a cancel and a completion racing win, with exactly one event', async () => {
      const ids = await Promise.all(Array.from({ length: 30 }, () => createPayment(api, merchant)));
      const answers = await Promise.all(ids.flatMap((id) => [cancel(id), helper(id, 'complete')]));
      for (const [index, id] of ids.entries()) {
        const [canceled, completed] = [answers[index * 2], answers[index * 2 + 1]];
        expect([canceled.status, completed.status].sort()).toEqual([200, 409]);
        const winner = canceled.status === 200 ? 'canceled' : 'completed';
        const stored = await api.as(merchant).get(`/v1/payments/${id}`).expect(200);
        expect(stored.body.data.status).toBe(winner);
        expect((await eventsOf(id)).map((event) => event.type)).toEqual([`payment.${winner}`]);
      }
    });
  });
});
