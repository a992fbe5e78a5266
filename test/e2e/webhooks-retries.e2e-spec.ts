import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ISO_MILLIS_UTC } from '../support/api-expectations';
import { type PaymentsApiHarness, type TestMerchant } from '../support/payments-api.harness';
import { startWebhookStack, type WebhookStack } from '../support/webhook-stack';
import { type WebhookReceiver } from '../support/webhook-receiver';
import {
  completedPayment,
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
/** Long enough that an endpoint answering at once on a loaded host is never taken for a hang. */
const TIMEOUT_MS = 10_000;

/** Failed attempts are retried by WEBHOOK_RETRY_SCHEDULE ('200ms,400ms' here) and all recorded. */
describe('webhook retries', () => {
  let stack: WebhookStack;
  let api: PaymentsApiHarness;
  let receiver: WebhookReceiver;
  let plans: ReturnType<typeof respondPerPayment>;
  let merchant: TestMerchant;
  let signingSecret: string;

  beforeAll(async () => {
    stack = await startWebhookStack('retries', { WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS) });
    ({ api, receiver } = stack);
    plans = respondPerPayment(receiver);
  }, START_MS);
  afterAll(() => stack.stop());
  beforeEach(async () => {
    merchant = await api.merchantWithKey('test');
    const endpoint = await api.as(merchant).put('/v1/webhook-endpoint').send({ url: receiver.url }).expect(200);
    signingSecret = endpoint.body.data.signingSecret;
  });

  const completed = (responder: PaymentResponder) => completedPayment(api, merchant, { plans, responder });
  const failTwiceThenOk: PaymentResponder = (attempt) =>
    attempt <= 2 ? { status: 500, body: `boom ${attempt}` } : { status: 200, body: 'ok' };

  it('retries a failing endpoint and stops at the first 2xx: 3 identical, validly signed deliveries', async () => {
    const { eventId } = await completed(failTwiceThenOk);

    const event = await eventUntil(api, merchant, eventId, (data) => data.deliveryStatus === 'succeeded');
    const deliveries = receiver.forEvent(eventId);
    expect(deliveries).toHaveLength(3);
    expect(deliveries.map((delivery) => delivery.headers['service-event-id'])).toEqual([eventId, eventId, eventId]);
    expect(deliveries.map((delivery) => delivery.rawBody.equals(deliveries[0].rawBody))).toEqual([true, true, true]);
    expect(JSON.parse(deliveries[0].rawBody.toString('utf8'))).toMatchObject({
      id: eventId,
      type: 'payment.completed',
    });
    expect(deliveries.map((delivery) => signatureCheck(delivery, signingSecret))).toEqual(['valid', 'valid', 'valid']);
    for (const delivery of deliveries) {
      expect(delivery.headers['content-type']).toBe('application/json');
      expect(delivery.headers['user-agent']).toMatch(/^payhook-webhooks\/\d+\.\d+\.\d+$/);
    }
    const times = deliveries.map(signatureTime);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    // The waits follow the schedule, less at most 10% jitter.
    expect(deliveries[1].receivedAt - deliveries[0].receivedAt).toBeGreaterThanOrEqual(180);
    expect(deliveries[2].receivedAt - deliveries[1].receivedAt).toBeGreaterThanOrEqual(360);

    expect(event.attempts).toEqual([
      expect.objectContaining({ number: 1, responseStatus: 500, responseBody: 'boom 1', error: expect.any(String) }),
      expect.objectContaining({ number: 2, responseStatus: 500, responseBody: 'boom 2', error: expect.any(String) }),
      expect.objectContaining({ number: 3, responseStatus: 200, responseBody: 'ok', error: null }),
    ]);
    for (const attempt of event.attempts) {
      expect(attempt.id).toMatch(/^att_[0-9A-Za-z]{20,}$/);
      expect(attempt.startedAt).toMatch(ISO_MILLIS_UTC);
      expect(Number.isInteger(attempt.durationMs) && attempt.durationMs >= 0).toBe(true);
    }
    const started = event.attempts.map((attempt) => Date.parse(attempt.startedAt));
    expect(started).toEqual([...started].sort((a, b) => a - b));
    expect(new Set(event.attempts.map((attempt) => attempt.id)).size).toBe(3);

    // A later event that also went through both waits shows no fourth delivery was on its way.
    const later = await completed(failTwiceThenOk);
    await eventUntil(api, merchant, later.eventId, (data) => data.deliveryStatus === 'succeeded');
    expect(receiver.forEvent(eventId)).toHaveLength(3);
  });

  it('gives up after 1 attempt and 2 retries of an always failing endpoint and says failed', async () => {
    const { eventId } = await completed((attempt) => ({ status: 500, body: `down ${attempt}` }));

    const event = await eventUntil(api, merchant, eventId, (data) => data.deliveryStatus === 'failed');
    expect(
      event.attempts.map(({ number, responseStatus, responseBody }) => ({ number, responseStatus, responseBody })),
    ).toEqual([
      { number: 1, responseStatus: 500, responseBody: 'down 1' },
      { number: 2, responseStatus: 500, responseBody: 'down 2' },
      { number: 3, responseStatus: 500, responseBody: 'down 3' },
    ]);
    expect(event.attempts.every((attempt) => typeof attempt.error === 'string' && attempt.error !== '')).toBe(true);

    const later = await completed(failTwiceThenOk);
    await eventUntil(api, merchant, later.eventId, (data) => data.deliveryStatus === 'succeeded');
    expect(receiver.forEvent(eventId)).toHaveLength(3);
    await expect(getEvent(api, merchant, eventId)).resolves.toMatchObject({
      deliveryStatus: 'failed',
      attempts: { length: 3 },
    });
  });

  it.each([201, 204, 299])('counts a %s answer as delivered', async (status) => {
    const { eventId } = await completed(() => ({ status }));

    const event = await eventUntil(api, merchant, eventId, (data) => data.deliveryStatus !== 'pending');
    expect(event).toMatchObject({ deliveryStatus: 'succeeded', attempts: [{ responseStatus: status, error: null }] });
  });

  it.each([400, 404, 410, 429])('counts a %s answer as a failed attempt and retries it', async (status) => {
    const { eventId } = await completed((attempt) => (attempt === 1 ? { status, body: 'no' } : { status: 200 }));

    const event = await eventUntil(api, merchant, eventId, (data) => data.deliveryStatus === 'succeeded');
    expect(event.attempts).toEqual([
      expect.objectContaining({ number: 1, responseStatus: status, responseBody: 'no', error: expect.any(String) }),
      expect.objectContaining({ number: 2, responseStatus: 200, error: null }),
    ]);
  });

  it('records a refused connection as a failed attempt without a response', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await api
      .as(merchant)
      .put('/v1/webhook-endpoint')
      .send({ url: `http://127.0.0.1:${port}/webhooks` })
      .expect(200);
    const { eventId } = await completed(() => ({ status: 200 }));

    const event = await eventUntil(api, merchant, eventId, (data) => data.deliveryStatus === 'failed');
    expect(event.attempts).toHaveLength(3);
    for (const attempt of event.attempts) {
      expect(attempt).toMatchObject({ responseStatus: null, responseBody: null, error: expect.stringMatching(/\S/) });
    }
  });

  it('records an endpoint slower than WEBHOOK_TIMEOUT_MS as a timed-out, failed attempt and retries it', async () => {
    // Attempt 1 is answered only once the event has succeeded, long past the timeout; attempt 2 at once.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const { eventId } = await completed((attempt) =>
      attempt === 1 ? { status: 200, body: 'too late', until: held } : { status: 200, body: 'ok' },
    );

    const event = await eventUntil(api, merchant, eventId, (data) => data.deliveryStatus === 'succeeded').finally(
      release,
    );
    expect(event.attempts).toEqual([
      expect.objectContaining({
        number: 1,
        responseStatus: null,
        responseBody: null,
        error: expect.stringMatching(/timeout/i),
      }),
      expect.objectContaining({ number: 2, responseStatus: 200, responseBody: 'ok', error: null }),
    ]);
    expect(event.attempts[0].durationMs).toBeGreaterThanOrEqual(TIMEOUT_MS - 100);
    expect(receiver.forEvent(eventId)).toHaveLength(2);
  });

  describe('with an endpoint that redirects', () => {
    let redirector: Server;

    beforeAll(async () => {
      // Sends every request on to the receiver with a 302, which a dispatcher must not follow.
      redirector = createServer((request, response) => {
        request.resume();
        request.on('end', () => response.writeHead(302, { location: receiver.url }).end('moved'));
      });
      await new Promise<void>((resolve) => redirector.listen(0, '127.0.0.1', resolve));
    });
    afterAll(async () => {
      redirector.closeAllConnections();
      await new Promise<void>((resolve) => redirector.close(() => resolve()));
    });

    it('counts a 302 as a failed attempt and does not follow it', async () => {
      const url = `http://127.0.0.1:${(redirector.address() as AddressInfo).port}/webhooks`;
      await api.as(merchant).put('/v1/webhook-endpoint').send({ url }).expect(200);
      const { eventId } = await completed(() => ({ status: 200, body: 'followed' }));

      const event = await eventUntil(api, merchant, eventId, (data) => data.deliveryStatus === 'failed');
      expect(event.attempts).toHaveLength(3);
      for (const attempt of event.attempts) {
        expect(attempt).toMatchObject({ responseStatus: 302, responseBody: 'moved', error: expect.any(String) });
      }
      // Every attempt is recorded once its request is over, a followed redirect included.
      expect(receiver.forEvent(eventId)).toHaveLength(0);
    });
  });

  it('keeps only the first 1 KiB of a long response body', async () => {
    const { eventId } = await completed(() => ({ status: 200, body: 'x'.repeat(5_000) }));

    const event = await eventUntil(api, merchant, eventId, (data) => data.deliveryStatus === 'succeeded');
    expect(event.attempts).toHaveLength(1);
    expect(event.attempts[0].responseBody).toBe('x'.repeat(1024));
  });
});
