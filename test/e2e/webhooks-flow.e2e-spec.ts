import { verifyWebhook } from '@payhook/sdk';
import { verifyWebhookSignature } from '@payhook/signing';
import { Webhook } from 'standardwebhooks';
import { type PaymentsApiHarness, paymentBody, type TestMerchant } from '../support/payments-api.harness';
import { pollUntil } from '../support/poll-until';
import { startWebhookStack, type WebhookStack } from '../support/webhook-stack';
import { standardWebhookHeaders, type WebhookReceiver } from '../support/webhook-receiver';
import { timeFor } from '../support/time-budget';

/** Starting its own database and two apps. */
const START_MS = timeFor({ database: 1, app: 2 });

describe('payment.completed webhooks', () => {
  let api: PaymentsApiHarness;
  let receiver: WebhookReceiver;
  let merchant: TestMerchant;
  let signingSecret: string;

  let stack: WebhookStack;

  beforeAll(async () => {
    stack = await startWebhookStack('flow');
    ({ api, receiver } = stack);
  }, START_MS);
  afterAll(() => stack.stop());
  beforeEach(async () => {
    merchant = await api.merchantWithKey('test');
    const endpoint = await api.as(merchant).put('/v1/webhook-endpoint').send({ url: receiver.url }).expect(200);
    signingSecret = endpoint.body.data.signingSecret;
  });

  async function completedPayment(): Promise<{ paymentId: string; eventId: string }> {
    const created = await api
      .as(merchant)
      .post('/v1/payments')
      .set('Idempotency-Key', `k-${Math.random()}`)
      .send(paymentBody())
      .expect(201);
    const paymentId = created.body.data.id as string;
    await api.as(merchant).post(`/v1/test-helpers/payments/${paymentId}/complete`).expect(200);
    const events = await api.as(merchant).get(`/v1/events?paymentId=${paymentId}`).expect(200);
    return { paymentId, eventId: events.body.data[0].id };
  }

  it('delivers one signed payment.completed with the exact headers', async () => {
    const { paymentId, eventId } = await completedPayment();
    const [delivery] = await pollUntil(
      async () => receiver.forEvent(eventId),
      (deliveries) => deliveries.length === 1,
    );
    expect(delivery.headers['content-type']).toBe('application/json');
    expect(delivery.headers['user-agent']).toMatch(/^payhook-webhooks\/\d+\.\d+\.\d+$/);
    expect(delivery.headers['service-event-id']).toBe(eventId);
    const signature = delivery.headers['service-signature'] as string;
    expect(signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(() => verifyWebhookSignature(delivery.rawBody, signature, signingSecret)).not.toThrow();

    // Standard Webhooks: the same event id and t, verified by the specification's own library.
    expect(delivery.headers['webhook-id']).toBe(eventId);
    expect(delivery.headers['webhook-timestamp']).toBe(/^t=(\d+),/.exec(signature)?.[1]);
    expect(delivery.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    const standardHeaders = standardWebhookHeaders(delivery);
    const body = JSON.parse(delivery.rawBody.toString('utf8'));
    expect(new Webhook(signingSecret).verify(delivery.rawBody, standardHeaders)).toEqual(body);
    // The SDK given the request's headers: Service-Signature when present, else the Standard headers.
    expect(verifyWebhook(delivery.rawBody, delivery.headers, signingSecret)).toEqual(body);
    expect(verifyWebhook(delivery.rawBody, standardHeaders, signingSecret)).toEqual(body);

    expect(body).toEqual({
      id: eventId,
      type: 'payment.completed',
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      data: { paymentId, orderId: expect.any(String), amount: 15000, currency: 'KRW', completedAt: body.createdAt },
    });

    const event = await pollUntil(
      async () => (await api.as(merchant).get(`/v1/events/${eventId}`).expect(200)).body.data,
      (data) => data.deliveryStatus === 'succeeded',
    );
    expect(event.attempts).toEqual([
      expect.objectContaining({ number: 1, responseStatus: 200, responseBody: 'ok', error: null }),
    ]);
    expect(event.attempts[0].id).toMatch(/^att_/);
  });

  it('refuses to complete twice and sends nothing more', async () => {
    const { paymentId, eventId } = await completedPayment();
    await pollUntil(
      async () => receiver.forEvent(eventId),
      (deliveries) => deliveries.length === 1,
    );
    const again = await api.as(merchant).post(`/v1/test-helpers/payments/${paymentId}/complete`).expect(409);
    expect(again.body.error.code).toBe('payment_state_conflict');
    // A later event arriving proves the pipeline has moved past anything the refused call could have sent.
    const later = await completedPayment();
    await pollUntil(
      async () => receiver.forEvent(later.eventId),
      (deliveries) => deliveries.length === 1,
    );
    expect(receiver.forEvent(eventId)).toHaveLength(1);
    const events = await api.as(merchant).get(`/v1/events?paymentId=${paymentId}`).expect(200);
    expect(events.body.data).toHaveLength(1);
  });
});
