import { expectApiError } from '../support/api-expectations';
import { type PaymentsApiHarness, type TestMerchant } from '../support/payments-api.harness';
import { pollUntil } from '../support/poll-until';
import { startWebhookStack, type WebhookStack } from '../support/webhook-stack';
import { type WebhookReceiver } from '../support/webhook-receiver';
import {
  completedPayment,
  createPayment,
  eventIdOf,
  eventUntil,
  getEvent,
  respondPerPayment,
  signatureCheck,
  signatureTime,
  type PaymentResponder,
} from '../support/webhook-scenario';
import { timeFor } from '../support/time-budget';

/** Starting its own database and two apps. */
const START_MS = timeFor({ database: 1, app: 2 });

/** POST /v1/events/{id}/redeliver sends the same event again, as one attempt. */
describe('webhook redelivery', () => {
  let stack: WebhookStack;
  let api: PaymentsApiHarness;
  let receiver: WebhookReceiver;
  let plans: ReturnType<typeof respondPerPayment>;
  let merchant: TestMerchant;
  let signingSecret: string;

  beforeAll(async () => {
    stack = await startWebhookStack('redeliver');
    ({ api, receiver } = stack);
    plans = respondPerPayment(receiver);
  }, START_MS);
  afterAll(() => stack.stop());
  beforeEach(async () => {
    merchant = await api.merchantWithKey('test');
  });

  async function setEndpoint(caller: TestMerchant = merchant): Promise<void> {
    const endpoint = await api.as(caller).put('/v1/webhook-endpoint').send({ url: receiver.url }).expect(200);
    signingSecret = endpoint.body.data.signingSecret;
  }

  const completed = (responder?: PaymentResponder) =>
    completedPayment(api, merchant, responder && { plans, responder });
  const alwaysDown: PaymentResponder = (attempt) => ({ status: 503, body: `down ${attempt}` });
  const failTwiceThenOk: PaymentResponder = (attempt) => (attempt <= 2 ? { status: 500 } : { status: 200 });

  async function redeliver(eventId: string): Promise<void> {
    const queued = await api.as(merchant).post(`/v1/events/${eventId}/redeliver`);
    expect({ status: queued.status, body: queued.body }).toEqual({
      status: 202,
      body: { data: { eventId, status: 'queued' } },
    });
  }

  /** A later event that went through both retry waits: anything a redelivery scheduled would be here by now. */
  async function barrier(): Promise<void> {
    const later = await completed(failTwiceThenOk);
    await eventUntil(api, merchant, later.eventId, (event) => event.deliveryStatus === 'succeeded');
  }

  it('sends a succeeded event again with the same id and bytes and a fresh valid signature', async () => {
    await setEndpoint();
    const { eventId } = await completed();
    const [first] = await pollUntil(
      async () => receiver.forEvent(eventId),
      (deliveries) => deliveries.length === 1,
    );
    await eventUntil(api, merchant, eventId, (event) => event.deliveryStatus === 'succeeded');

    await redeliver(eventId);
    const deliveries = await pollUntil(
      async () => receiver.forEvent(eventId),
      (received) => received.length === 2,
    );
    const again = deliveries[1];
    expect(again.headers['service-event-id']).toBe(eventId);
    expect(again.rawBody.equals(first.rawBody)).toBe(true);
    expect(signatureCheck(again, signingSecret)).toBe('valid');
    expect(signatureTime(again)).toBeGreaterThanOrEqual(signatureTime(first));

    const event = await eventUntil(api, merchant, eventId, (data) => data.attempts.length === 2);
    expect(event.deliveryStatus).toBe('succeeded');
    expect(event.attempts).toEqual([
      expect.objectContaining({ number: 1, responseStatus: 200 }),
      expect.objectContaining({ number: 2, responseStatus: 200, error: null }),
    ]);
    expect(event.attempts[0].id).not.toBe(event.attempts[1].id);
  });

  it('accepts the redeliver POST with an empty body with or without a Content-Type', async () => {
    await setEndpoint();
    const { eventId } = await completed();
    await eventUntil(api, merchant, eventId, (event) => event.deliveryStatus === 'succeeded');

    const bare = await api.as(merchant).post(`/v1/events/${eventId}/redeliver`);
    const typed = await api
      .as(merchant)
      .post(`/v1/events/${eventId}/redeliver`)
      .set('Content-Type', 'application/json');
    expect([bare.status, typed.status]).toEqual([202, 202]);
    await eventUntil(api, merchant, eventId, (event) => event.attempts.length === 3);
  });

  it('delivers a failed event once the endpoint is fixed, and the event becomes succeeded', async () => {
    await setEndpoint();
    let fixed = false;
    const { eventId } = await completed((attempt) => (fixed ? { status: 200, body: 'ok' } : alwaysDown(attempt)));
    await eventUntil(api, merchant, eventId, (event) => event.deliveryStatus === 'failed');

    fixed = true;
    await redeliver(eventId);
    const event = await eventUntil(api, merchant, eventId, (data) => data.deliveryStatus === 'succeeded');
    expect(event.attempts.map((attempt) => attempt.responseStatus)).toEqual([503, 503, 503, 200]);
    expect(receiver.forEvent(eventId)).toHaveLength(4);
    expect(signatureCheck(receiver.forEvent(eventId)[3], signingSecret)).toBe('valid');
  });

  it('makes one attempt per redelivery: a failed one leaves the event failed and schedules no retry', async () => {
    await setEndpoint();
    const { eventId } = await completed(alwaysDown);
    await eventUntil(api, merchant, eventId, (event) => event.deliveryStatus === 'failed');

    await redeliver(eventId);
    const event = await eventUntil(api, merchant, eventId, (data) => data.attempts.length === 4);
    expect(event.deliveryStatus).toBe('failed');
    expect(event.attempts[3]).toMatchObject({ number: 4, responseStatus: 503, responseBody: 'down 4' });

    await barrier();
    await expect(getEvent(api, merchant, eventId)).resolves.toMatchObject({
      deliveryStatus: 'failed',
      attempts: { length: 4 },
    });
    expect(receiver.forEvent(eventId)).toHaveLength(4);
  });

  it('keeps a succeeded event succeeded when a redelivery fails', async () => {
    await setEndpoint();
    const { eventId } = await completed((attempt) => (attempt === 1 ? { status: 200 } : { status: 500 }));
    await eventUntil(api, merchant, eventId, (event) => event.deliveryStatus === 'succeeded');

    await redeliver(eventId);
    const event = await eventUntil(api, merchant, eventId, (data) => data.attempts.length === 2);
    expect(event.deliveryStatus).toBe('succeeded');
    expect(event.attempts.map((attempt) => attempt.responseStatus)).toEqual([200, 500]);

    await barrier();
    await expect(getEvent(api, merchant, eventId)).resolves.toMatchObject({
      deliveryStatus: 'succeeded',
      attempts: { length: 2 },
    });
  });

  it('answers 404 resource_not_found for an unknown event id', async () => {
    await setEndpoint();
    const unknown = await api.as(merchant).post('/v1/events/evt_000000000000000000000000/redeliver');
    expectApiError(unknown, { status: 404, code: 'resource_not_found' });
  });

  it("answers 404 for another merchant's event and sends nothing", async () => {
    await setEndpoint();
    const { eventId } = await completed();
    await eventUntil(api, merchant, eventId, (event) => event.deliveryStatus === 'succeeded');

    const other = await api.merchantWithKey('test');
    await setEndpoint(other);
    const refused = await api.as(other).post(`/v1/events/${eventId}/redeliver`);
    expectApiError(refused, { status: 404, code: 'resource_not_found' });

    await barrier();
    expect(receiver.forEvent(eventId)).toHaveLength(1);
  });

  it("answers 404 when a test key names the same merchant's live event", async () => {
    const live = await api.merchantWithKey('live', { live: true });
    const { key: testKey } = await api.issueKey(live.merchantId, 'test');
    await api.as(live).put('/v1/webhook-endpoint').send({ url: receiver.url }).expect(200);
    const paymentId = await createPayment(api, live);
    await api.admin().post(`/admin/v1/payments/${paymentId}/confirm-receipt`).expect(200);
    const eventId = await eventIdOf(api, live, paymentId);
    await eventUntil(api, live, eventId, (event) => event.deliveryStatus === 'succeeded');

    const refused = await api.as({ key: testKey }).post(`/v1/events/${eventId}/redeliver`);
    expectApiError(refused, { status: 404, code: 'resource_not_found' });
    // The live key itself may.
    await api.as(live).post(`/v1/events/${eventId}/redeliver`).expect(202);
    await eventUntil(api, live, eventId, (event) => event.attempts.length === 2);
  });

  describe('an event completed before any endpoint was set', () => {
    it('is kept as failed with a reason, is not sent by setting an endpoint, and is delivered on redeliver', async () => {
      const { eventId } = await completed();
      const undelivered = await eventUntil(api, merchant, eventId, (event) => event.deliveryStatus !== 'pending');
      expect(undelivered).toMatchObject({ deliveryStatus: 'failed', attempts: [] });
      expect(undelivered.undeliveredReason).toEqual(expect.stringMatching(/\S/));

      await setEndpoint();
      await barrier();
      expect(receiver.forEvent(eventId)).toHaveLength(0);
      await expect(getEvent(api, merchant, eventId)).resolves.toMatchObject({ deliveryStatus: 'failed', attempts: [] });

      await redeliver(eventId);
      const delivered = await eventUntil(api, merchant, eventId, (event) => event.deliveryStatus === 'succeeded');
      expect(delivered.attempts).toEqual([expect.objectContaining({ number: 1, responseStatus: 200, error: null })]);
      expect(delivered.undeliveredReason).toBeNull();
      const deliveries = receiver.forEvent(eventId);
      expect(deliveries).toHaveLength(1);
      expect(signatureCheck(deliveries[0], signingSecret)).toBe('valid');
      expect(JSON.parse(deliveries[0].rawBody.toString('utf8'))).toMatchObject({ id: eventId });
    });
  });
});
