import type { AddressInfo } from 'node:net';
import type { Response } from 'supertest';
import { PayhookClient } from '../../libs/sdk/src';
import { expectApiError } from '../support/api-expectations';
import type { TestMerchant } from '../support/payments-api.harness';
import { pollUntil } from '../support/poll-until';
import { WebhookReceiver } from '../support/webhook-receiver';
import { completedPayment, eventUntil, getEvent, signatureCheck } from '../support/webhook-scenario';
import { startWebhookStack, type WebhookStack } from '../support/webhook-stack';

/** The error shape with this status, code and (when given) param. */
const refused = (response: Response, status: number, code: string, param?: string) =>
  expectApiError(response, { status, code, ...(param === undefined ? {} : { param }) });

interface Endpoint {
  id: string;
  url: string;
  description: string | null;
  enabledEvents: string[];
  signingSecret: string;
  livemode: boolean;
  status: 'enabled' | 'disabled';
  createdAt: string;
}

/**
 * Endpoints as a resource (we_ ids, up to 16 per mode), the
 * singular route on the mode's oldest, and fan-out: every endpoint that takes an event's type gets its
 * own delivery, with its own secret, attempts, status and retries.
 */
describe('several webhook endpoints', () => {
  let stack: WebhookStack;
  let merchant: TestMerchant;
  // A second receiver: the stack's answers 200, this one as each test scripts it.
  let other: WebhookReceiver;

  beforeAll(async () => {
    // Retries come quickly and end after the third attempt: a failing endpoint's delivery ends `failed`.
    stack = await startWebhookStack('endpoints', { WEBHOOK_RETRY_SCHEDULE: '200ms,200ms' });
    other = await WebhookReceiver.start();
  });
  afterAll(async () => {
    await other.stop();
    await stack.stop();
  });
  beforeEach(async () => {
    merchant = await stack.api.merchantWithKey('test');
    other.respondWith(() => ({ status: 200, body: 'ok' }));
  });

  const api = () => stack.api.as(merchant);
  const create = async (body: object): Promise<Endpoint> =>
    (await api().post('/v1/webhook-endpoints').send(body).expect(201)).body.data as Endpoint;

  it('creates, lists oldest first, reads, changes and deletes endpoints, each with its own secret', async () => {
    const orders = await create({ url: stack.receiver.url, description: 'order service' });
    expect(orders).toEqual({
      id: expect.stringMatching(/^we_[0-9A-Za-z]{24}$/),
      url: stack.receiver.url,
      description: 'order service',
      enabledEvents: ['payment.completed'],
      signingSecret: expect.stringMatching(/^whsec_[0-9A-Za-z]{32}$/),
      livemode: false,
      status: 'enabled',
      failingSince: null,
      consecutiveFailures: 0,
      lastError: null,
      disabledAt: null,
      createdAt: expect.any(String),
    });
    const books = await create({ url: other.url, enabledEvents: ['refund.succeeded', 'payment.completed'] });
    expect(books.enabledEvents).toEqual(['payment.completed', 'refund.succeeded']);
    expect(books.signingSecret).not.toBe(orders.signingSecret);

    const list = (await api().get('/v1/webhook-endpoints').expect(200)).body;
    expect(list).toEqual({ data: [orders, books], hasMore: false, nextCursor: null });
    const firstPage = (await api().get('/v1/webhook-endpoints?limit=1').expect(200)).body;
    expect(firstPage.data).toEqual([orders]);
    const secondPage = (await api().get(`/v1/webhook-endpoints?limit=1&cursor=${firstPage.nextCursor}`).expect(200))
      .body;
    expect(secondPage).toEqual({ data: [books], hasMore: false, nextCursor: null });
    expect((await api().get(`/v1/webhook-endpoints/${books.id}`).expect(200)).body.data).toEqual(books);

    const changed = (
      await api().patch(`/v1/webhook-endpoints/${books.id}`).send({ description: 'accounting' }).expect(200)
    ).body.data as Endpoint;
    expect(changed).toEqual({ ...books, description: 'accounting' });
    const cleared = (await api().patch(`/v1/webhook-endpoints/${books.id}`).send({ description: null }).expect(200))
      .body.data as Endpoint;
    expect(cleared.description).toBeNull();

    const rotated = (await api().post(`/v1/webhook-endpoints/${books.id}/rotate-secret`).expect(200)).body
      .data as Endpoint;
    expect(rotated.signingSecret).not.toBe(books.signingSecret);
    expect((await api().get(`/v1/webhook-endpoints/${orders.id}`).expect(200)).body.data.signingSecret).toBe(
      orders.signingSecret,
    );

    expect((await api().delete(`/v1/webhook-endpoints/${books.id}`).expect(200)).body.data.id).toBe(books.id);
    refused(await api().get(`/v1/webhook-endpoints/${books.id}`), 404, 'resource_not_found');
    expect((await api().get('/v1/webhook-endpoints').expect(200)).body.data).toEqual([orders]);
  });

  it('is managed through the SDK as through the API', async () => {
    const port = (stack.api.app.getHttpServer().address() as AddressInfo).port;
    const sdk = new PayhookClient({ apiKey: merchant.key, baseUrl: `http://127.0.0.1:${port}` });
    const created = await sdk.createWebhookEndpoint({ url: other.url, description: 'data pipeline' });
    expect(created).toMatchObject({
      url: other.url,
      description: 'data pipeline',
      enabledEvents: ['payment.completed'],
    });
    await expect(sdk.getWebhookEndpoint(created.id)).resolves.toEqual(created);
    const changed = await sdk.updateWebhookEndpoint(created.id, { enabledEvents: ['refund.succeeded'] });
    expect(changed.enabledEvents).toEqual(['refund.succeeded']);
    const rotated = await sdk.rotateWebhookEndpointSecret(created.id, { previousSecretExpiresIn: 3_600 });
    expect(rotated.signingSecret).not.toBe(created.signingSecret);
    await expect(sdk.listWebhookEndpoints()).resolves.toEqual({ data: [rotated], hasMore: false, nextCursor: null });
    await expect(sdk.deleteWebhookEndpoint(created.id)).resolves.toMatchObject({ id: created.id });
    await expect(sdk.getWebhookEndpoint(created.id)).rejects.toMatchObject({ status: 404, code: 'resource_not_found' });
  });

  it('answers every other merchant operation through the SDK as the API does', async () => {
    const port = (stack.api.app.getHttpServer().address() as AddressInfo).port;
    const sdk = new PayhookClient({ apiKey: merchant.key, baseUrl: `http://127.0.0.1:${port}` });
    const endpoint = await sdk.putModeWebhookEndpoint({ url: stack.receiver.url });
    await expect(sdk.getModeWebhookEndpoint()).resolves.toEqual(endpoint);
    const rotated = await sdk.rotateModeWebhookEndpointSecret({ previousSecretExpiresIn: 60 });
    expect(rotated.signingSecret).not.toBe(endpoint.signingSecret);

    // A payment paid by transfer, then refunded in part; its events, settlement records and CSV.
    const payment = await sdk.createPayment({
      orderId: `sdk-${merchant.merchantId}`,
      customerId: 'customer-1',
      amount: 15000,
      currency: 'KRW',
      returnUrl: 'https://shop.example/return',
    });
    const deposit = await sdk.depositForTestPayment(payment.id);
    expect(deposit).toMatchObject({ outcome: 'matched', paymentId: payment.id, amount: 15000 });
    const refund = await sdk.createRefund(payment.id, { amount: 5000 });
    await expect(sdk.getRefund(refund.id)).resolves.toMatchObject({ id: refund.id, amount: 5000 });
    await expect(sdk.listRefunds({ paymentId: payment.id })).resolves.toMatchObject({ data: [{ id: refund.id }] });

    const [listed] = (await sdk.listEvents({ paymentId: payment.id, type: 'payment.completed' })).data;
    const event = await pollUntil(
      () => sdk.getEvent(listed.id),
      (read) => read.deliveryStatus === 'succeeded' && read.deliveries.every((one) => one.status === 'succeeded'),
    );
    expect(event).toMatchObject({ type: 'payment.completed', deliveries: [{ status: 'succeeded' }] });
    await expect(sdk.redeliverEvent(event.id)).resolves.toEqual({ eventId: event.id, status: 'queued' });
    await expect(sdk.recoverEvents({ since: new Date(Date.now() - 60_000) })).resolves.toMatchObject({ queued: 0 });

    const settlements = await sdk.listSettlements();
    const records = settlements.data.filter((record) => record.paymentId === payment.id);
    expect(records.map((record) => record.grossAmount).sort((a, b) => a - b)).toEqual([-5000, 15000]);
    const csv = await sdk.exportSettlements(records[0].salesDate);
    expect(csv.split('\n')[0]).toContain('payment_id');
    expect(csv).toContain(payment.id);

    // The other test helpers: a deposit nobody's code matches goes to review; a voucher shows its PIN once.
    const unmatched = await sdk.createTestDeposit({ amount: 777, bankTransactionId: `bank-${merchant.merchantId}` });
    expect(unmatched.outcome).toBe('review');
    await expect(
      sdk.createTestDeposit({ amount: 777, bankTransactionId: `bank-${merchant.merchantId}` }),
    ).resolves.toEqual(unmatched);
    await expect(sdk.issueTestVoucher({ faceValue: 10000 })).resolves.toMatchObject({
      faceValue: 10000,
      pin: expect.stringMatching(/^[0-9]{16}$/),
    });

    const run = await sdk.startIntegrationTest();
    // Until it ends: a run left going would keep delivering to the receiver the next tests read.
    const finished = await pollUntil(
      () => sdk.getIntegrationTest(run.id),
      (read) => read.status !== 'running',
      { timeoutMs: 120_000 },
    );
    expect(finished.scenarios.map((scenario) => scenario.name)).toEqual([
      'completion',
      'retries',
      'duplicates',
      'review',
    ]);
    const session = await sdk.createListenSession();
    await expect(sdk.getListenSession(session.id)).resolves.toMatchObject({ id: session.id, status: 'open' });
    await sdk.endListenSession(session.id);
    await expect(sdk.getListenSession(session.id)).resolves.toMatchObject({ status: 'ended' });
  });

  it('refuses bad input with the error shape and changes nothing', async () => {
    const endpoint = await create({ url: stack.receiver.url });
    refused(await api().post('/v1/webhook-endpoints').send({}), 400, 'parameter_missing', 'url');
    refused(
      await api().post('/v1/webhook-endpoints').send({ url: stack.receiver.url, secret: 'mine' }),
      400,
      'parameter_unknown',
    );
    refused(
      await api()
        .patch(`/v1/webhook-endpoints/${endpoint.id}`)
        .send({ enabledEvents: ['payment.refunded'] }),
      400,
      'parameter_invalid',
      'enabledEvents',
    );
    // Empty, or more than one line (owners read it in e-mails about the endpoint).
    for (const description of ['', 'accounting\u2028ACTION REQUIRED: sign in at evil.example', 'a\u2029b']) {
      refused(
        await api().patch(`/v1/webhook-endpoints/${endpoint.id}`).send({ description }),
        400,
        'parameter_invalid',
        'description',
      );
    }
    refused(await api().get('/v1/webhook-endpoints/we_nope'), 404, 'resource_not_found', 'id');
    refused(await api().get('/v1/webhook-endpoints?cursor=bm9wZQ'), 400, 'parameter_invalid', 'cursor');
    // Another merchant's endpoint, and the other mode's, do not exist here.
    const stranger = await stack.api.merchantWithKey('test');
    refused(await stack.api.as(stranger).get(`/v1/webhook-endpoints/${endpoint.id}`), 404, 'resource_not_found');
    expect((await api().get(`/v1/webhook-endpoints/${endpoint.id}`).expect(200)).body.data).toEqual(endpoint);
  });

  it('allows 16 endpoints per mode, also under concurrent creates, and refuses a 17th', async () => {
    await api().put('/v1/webhook-endpoint').send({ url: stack.receiver.url }).expect(200);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => api().post('/v1/webhook-endpoints').send({ url: other.url })),
    );
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(15);
    for (const answer of answers.filter((answer) => answer.status !== 201)) {
      refused(answer, 409, 'endpoint_limit_reached');
    }
    const listed = (await api().get('/v1/webhook-endpoints?limit=100').expect(200)).body.data as Endpoint[];
    expect(listed).toHaveLength(16);
  });

  it('keeps the singular route on the oldest endpoint', async () => {
    const oldest = (await api().put('/v1/webhook-endpoint').send({ url: stack.receiver.url }).expect(200)).body.data;
    const newer = await create({ url: other.url, description: 'newer' });
    const singular = (await api().get('/v1/webhook-endpoint').expect(200)).body.data;
    expect(singular).toEqual(oldest);
    expect(Object.keys(singular).sort()).toEqual(
      [
        'url',
        'signingSecret',
        'livemode',
        'enabledEvents',
        'status',
        'failingSince',
        'consecutiveFailures',
        'lastError',
        'disabledAt',
      ].sort(),
    );
    // PUT changes the oldest, never the newer one.
    await api()
      .put('/v1/webhook-endpoint')
      .send({ url: `${stack.receiver.url}?v=2` })
      .expect(200);
    const [first, second] = (await api().get('/v1/webhook-endpoints').expect(200)).body.data as Endpoint[];
    expect(first.url).toBe(`${stack.receiver.url}?v=2`);
    expect(second).toEqual(newer);
    // With the oldest gone, the next one is the singular route's.
    await api().delete(`/v1/webhook-endpoints/${first.id}`).expect(200);
    expect((await api().get('/v1/webhook-endpoint').expect(200)).body.data.url).toBe(other.url);
  });

  it('delivers an event to every endpoint that takes its type, each signed with its own secret', async () => {
    const orders = await create({ url: stack.receiver.url });
    const books = await create({ url: other.url, enabledEvents: ['payment.completed', 'refund.succeeded'] });
    const refundsOnly = await create({ url: other.url, enabledEvents: ['refund.succeeded'] });

    const { eventId } = await completedPayment(stack.api, merchant);
    const event = await eventUntil(stack.api, merchant, eventId, (seen) => seen.deliveryStatus === 'succeeded');
    expect(event.deliveries).toEqual(
      [orders, books].map((endpoint) => ({ endpointId: endpoint.id, status: 'succeeded', undeliveredReason: null })),
    );
    expect(event.attempts.map((attempt) => attempt.endpointId).sort()).toEqual([orders.id, books.id].sort());
    expect(event.attempts.map((attempt) => attempt.number).sort()).toEqual([1, 2]);

    const [atOrders] = stack.receiver.forEvent(eventId);
    const [atBooks, ...more] = other.forEvent(eventId);
    expect(more).toEqual([]);
    expect(signatureCheck(atOrders, orders.signingSecret)).toBe('valid');
    expect(signatureCheck(atBooks, books.signingSecret)).toBe('valid');
    expect(signatureCheck(atBooks, orders.signingSecret)).toBe('signature_mismatch');
    expect(atOrders.rawBody.equals(atBooks.rawBody)).toBe(true);
    // The endpoint that does not take the type costs no row.
    const rows = await stack.api.sql<{ endpoint_id: string }>(
      `SELECT endpoint_id FROM webhook_deliveries WHERE event_id = $1`,
      [eventId],
    );
    expect(rows.map((row) => row.endpoint_id)).not.toContain(refundsOnly.id);
  });

  it('writes one delivery for a type enabled on 1 of 16 endpoints', async () => {
    const taker = await create({ url: other.url, enabledEvents: ['payment.completed'] });
    for (let n = 0; n < 15; n++) await create({ url: other.url, enabledEvents: ['payment.canceled'] });
    const { eventId } = await completedPayment(stack.api, merchant);
    await eventUntil(stack.api, merchant, eventId, (seen) => seen.deliveryStatus === 'succeeded');
    const rows = await stack.api.sql<{ endpoint_id: string }>(
      `SELECT endpoint_id FROM webhook_deliveries WHERE event_id = $1`,
      [eventId],
    );
    expect(rows).toEqual([{ endpoint_id: taker.id }]);
  });

  it('lets an endpoint that fails cost the others nothing, and sums the deliveries up', async () => {
    const healthy = await create({ url: stack.receiver.url });
    const failing = await create({ url: other.url });
    other.respondWith(() => ({ status: 500, body: 'down' }));

    const { eventId } = await completedPayment(stack.api, merchant);
    // The event's summary is written after its last delivery's outcome: wait for both (CI once read
    // every delivery settled while the summary still said pending).
    const settled = await eventUntil(
      stack.api,
      merchant,
      eventId,
      (seen) => seen.deliveries.every((delivery) => delivery.status !== 'pending') && seen.deliveryStatus !== 'pending',
    );
    expect(settled.deliveries).toEqual([
      { endpointId: healthy.id, status: 'succeeded', undeliveredReason: null },
      { endpointId: failing.id, status: 'failed', undeliveredReason: null },
    ]);
    expect(settled.deliveryStatus).toBe('failed');
    expect(stack.receiver.forEvent(eventId)).toHaveLength(1);
    expect(other.forEvent(eventId)).toHaveLength(3);
    const failingAttempts = settled.attempts.filter((attempt) => attempt.endpointId === failing.id);
    expect(failingAttempts.map((attempt) => attempt.responseStatus)).toEqual([500, 500, 500]);

    // Health is the endpoint's own.
    const [healthyNow, failingNow] = (await api().get('/v1/webhook-endpoints').expect(200)).body.data;
    expect(healthyNow.consecutiveFailures).toBe(0);
    expect(failingNow.consecutiveFailures).toBe(3);

    // Redelivered to the failing endpoint alone, once it answers again.
    other.respondWith(() => ({ status: 200, body: 'ok' }));
    await api().post(`/v1/events/${eventId}/redeliver`).send({ endpointId: failing.id }).expect(202);
    const redelivered = await eventUntil(stack.api, merchant, eventId, (seen) => seen.deliveryStatus === 'succeeded');
    expect(redelivered.deliveries.map((delivery) => delivery.status)).toEqual(['succeeded', 'succeeded']);
    expect(stack.receiver.forEvent(eventId)).toHaveLength(1);
    expect(other.forEvent(eventId)).toHaveLength(4);
  });

  it('recovers the failed deliveries of one endpoint only when asked to', async () => {
    const first = await create({ url: stack.receiver.url });
    const second = await create({ url: other.url });
    stack.receiver.respondWith(() => ({ status: 503 }));
    other.respondWith(() => ({ status: 503 }));
    const { eventId } = await completedPayment(stack.api, merchant);
    await eventUntil(stack.api, merchant, eventId, (seen) =>
      seen.deliveries.every((delivery) => delivery.status === 'failed'),
    );
    stack.receiver.respondWith(() => ({ status: 200, body: 'ok' }));
    other.respondWith(() => ({ status: 200, body: 'ok' }));
    const since = new Date(Date.now() - 60_000).toISOString();
    const recovered = await api().post('/v1/events/recover').send({ since, endpointId: second.id }).expect(202);
    expect(recovered.body.data.queued).toBe(1);
    const after = await eventUntil(stack.api, merchant, eventId, (seen) =>
      seen.deliveries.some((delivery) => delivery.status === 'succeeded'),
    );
    expect(after.deliveries).toEqual([
      { endpointId: first.id, status: 'failed', undeliveredReason: null },
      { endpointId: second.id, status: 'succeeded', undeliveredReason: null },
    ]);
    refused(
      await api().post('/v1/events/recover').send({ since, endpointId: 'we_ABCDEFGHIJKLMNOPQRSTUVWX' }),
      404,
      'resource_not_found',
      'endpointId',
    );
  });

  it('ends what a deleted endpoint was still owed as failed (endpoint_deleted)', async () => {
    const kept = await create({ url: stack.receiver.url });
    const doomed = await create({ url: other.url });
    // The doomed endpoint holds its first attempt until the test has deleted it.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    other.respondWith(() => ({ status: 500, until: held }));
    const { eventId } = await completedPayment(stack.api, merchant);
    await pollUntil(
      async () => other.forEvent(eventId).length,
      (count) => count === 1,
    );
    await api().delete(`/v1/webhook-endpoints/${doomed.id}`).expect(200);
    release();
    const ended = await eventUntil(stack.api, merchant, eventId, (seen) =>
      seen.deliveries.every((delivery) => delivery.status !== 'pending'),
    );
    expect(ended.deliveries).toEqual([
      { endpointId: kept.id, status: 'succeeded', undeliveredReason: null },
      { endpointId: doomed.id, status: 'failed', undeliveredReason: 'endpoint_deleted' },
    ]);
    expect(ended.deliveryStatus).toBe('failed');
    // Its retry found the endpoint gone: no second attempt went out.
    const event = await getEvent(stack.api, merchant, eventId);
    expect(event.attempts.filter((attempt) => attempt.endpointId === doomed.id)).toHaveLength(1);
    expect(other.forEvent(eventId)).toHaveLength(1);
  });
});
