import type { INestApplication } from '@nestjs/common';
import { DeliveryStateSweeper } from '../../apps/webhook-dispatcher/src/deliveries/delivery-state.sweeper';
import { expectApiError } from '../support/api-expectations';
import { isolatedServices, type IsolatedServices } from '../support/isolated-services';
import { PaymentsApiHarness, type TestMerchant } from '../support/payments-api.harness';
import { startDispatcher } from '../support/webhook-dispatcher.harness';
import { WebhookReceiver } from '../support/webhook-receiver';
import { completedPayment, eventUntil, getEvent } from '../support/webhook-scenario';
import { timeFor } from '../support/time-budget';

jest.setTimeout(timeFor({ database: 1, app: 2 }));

/**
 * What payments-api asks of existing deliveries reaches the dispatcher as a message, but the message
 * is only a speed-up: when it is lost (dead-lettered, or sent to a dispatcher too old to know it),
 * the dispatcher's sweep carries the recovery out from its row, and ends what a deleted endpoint was
 * owed. Here no message is ever sent: the rows are written directly.
 */
describe('the delivery-state sweep', () => {
  let services: IsolatedServices;
  let api: PaymentsApiHarness;
  let receiver: WebhookReceiver;
  let dispatcher: INestApplication | undefined;

  beforeAll(async () => {
    services = await isolatedServices('sweep');
    [api, receiver] = await Promise.all([PaymentsApiHarness.start(services.env), WebhookReceiver.start()]);
    receiver.respondWith(() => ({ status: 200, body: 'ok' }));
  });
  afterAll(async () => {
    await dispatcher?.close();
    await api?.stop();
    await receiver?.stop();
    await services?.drop();
  });

  /** The dispatcher, started on first use: the first test needs none. */
  const startedDispatcher = async () => (dispatcher ??= await startDispatcher(services.env));
  const createEndpoint = async (merchant: TestMerchant) =>
    (await api.as(merchant).post('/v1/webhook-endpoints').send({ url: receiver.url }).expect(201)).body.data
      .id as string;
  /** An event that failed at once: its mode had no endpoint when it was created. */
  const failedEvent = async (merchant: TestMerchant) => {
    const { eventId } = await completedPayment(api, merchant);
    expect((await getEvent(api, merchant, eventId)).deliveryStatus).toBe('failed');
    return eventId;
  };
  const recoveryOf = async (merchant: TestMerchant) =>
    (
      await api.sql<{ applied_at: Date | null; endpoint_id: string | null; headers: Record<string, string> | null }>(
        `SELECT applied_at, endpoint_id, headers FROM event_recoveries WHERE merchant_id = $1`,
        [merchant.merchantId],
      )
    )[0];

  it('records a recover with everything the dispatcher needs, not applied until it is carried out', async () => {
    const merchant = await api.merchantWithKey('test');
    await failedEvent(merchant);
    const endpointId = await createEndpoint(merchant);
    const since = new Date(Date.now() - 60_000).toISOString();

    const recovered = await api.as(merchant).post('/v1/events/recover').send({ since, endpointId }).expect(202);
    expect(recovered.body.data.queued).toBe(1);
    // An explicit NULL: the column's default, now(), is for older API instances, which carry out their own.
    expect(await recoveryOf(merchant)).toEqual({
      applied_at: null,
      endpoint_id: endpointId,
      headers: expect.objectContaining({ 'payhook-request-id': recovered.headers['request-id'] }),
    });
    expectApiError(await api.as(merchant).post('/v1/events/recover').send({ since }), {
      status: 409,
      code: 'recover_in_progress',
    });
  });

  it('gives a recovery written without applied_at (an older API instance) the time of its insert', async () => {
    const merchant = await api.merchantWithKey('test');
    await api.sql(
      `INSERT INTO event_recoveries (id, merchant_id, livemode, since, queued) VALUES ('rcv_sweepolderapi', $1, false, now(), 3)`,
      [merchant.merchantId],
    );
    expect((await recoveryOf(merchant)).applied_at).toEqual(expect.any(Date));
    await api
      .as(merchant)
      .post('/v1/events/recover')
      .send({ since: new Date(Date.now() - 60_000).toISOString() })
      .expect(202);
  });

  it('carries out a recovery whose message never came, from its row, and the next recover is let through', async () => {
    await startedDispatcher();
    const merchant = await api.merchantWithKey('test');
    const [older, recent] = [await failedEvent(merchant), await failedEvent(merchant)];
    // Before the recover's since: not its to send.
    await api.sql(`UPDATE events SET created_at = now() - interval '2 days' WHERE id = $1`, [older]);
    const named = await createEndpoint(merchant);
    await createEndpoint(merchant); // takes the type too, but is not the row's
    // Recorded as the API records it, but no message: the outbox never had one.
    await api.sql(
      `INSERT INTO event_recoveries (id, merchant_id, livemode, since, queued, endpoint_id, headers, applied_at)
       VALUES ('rcv_sweeplostmessage', $1, false, now() - interval '1 day', 1, $2, '{}', NULL)`,
      [merchant.merchantId, named],
    );
    const since = new Date(Date.now() - 86_400_000).toISOString();
    expectApiError(await api.as(merchant).post('/v1/events/recover').send({ since }), {
      status: 409,
      code: 'recover_in_progress',
    });

    // Within its grace the sweep leaves it to the message; past it, the sweep carries it out.
    const sweeper = dispatcher!.get(DeliveryStateSweeper);
    await sweeper.runOnce();
    expect((await recoveryOf(merchant)).applied_at).toBeNull();
    await api.sql(
      `UPDATE event_recoveries SET created_at = now() - interval '1 minute' WHERE id = 'rcv_sweeplostmessage'`,
    );
    await sweeper.runOnce();
    expect((await recoveryOf(merchant)).applied_at).toEqual(expect.any(Date));

    const delivered = await eventUntil(api, merchant, recent, (event) => event.deliveryStatus === 'succeeded');
    // To the endpoint the row names only.
    expect(delivered.deliveries).toEqual([{ endpointId: named, status: 'succeeded', undeliveredReason: null }]);
    expect((await getEvent(api, merchant, older)).deliveryStatus).toBe('failed');
    expect(receiver.forEvent(older)).toHaveLength(0);

    const again = await api.as(merchant).post('/v1/events/recover').send({ since }).expect(202);
    expect(again.body.data.queued).toBe(0);
  });

  it('ends what a deleted endpoint was still owed when its message never came', async () => {
    await startedDispatcher();
    const merchant = await api.merchantWithKey('test');
    const kept = await createEndpoint(merchant);
    const doomed = await createEndpoint(merchant);
    const { eventId } = await completedPayment(api, merchant);
    await eventUntil(api, merchant, eventId, (event) => event.deliveryStatus === 'succeeded');
    // The doomed endpoint's delivery waits in its lane, then the endpoint goes without a message.
    await api.sql(
      `UPDATE webhook_deliveries SET status = 'pending', lane_due_at = now() + interval '1 hour', lane_retry_step = 2
       WHERE event_id = $1 AND endpoint_id = $2`,
      [eventId, doomed],
    );
    await api.sql(`DELETE FROM webhook_endpoints WHERE id = $1`, [doomed]);

    await dispatcher!.get(DeliveryStateSweeper).runOnce();

    const ended = await getEvent(api, merchant, eventId);
    expect(ended.deliveries).toEqual([
      { endpointId: kept, status: 'succeeded', undeliveredReason: null },
      { endpointId: doomed, status: 'failed', undeliveredReason: 'endpoint_deleted' },
    ]);
    const [lane] = await api.sql<{ lane_due_at: Date | null; lane_retry_step: number | null }>(
      `SELECT lane_due_at, lane_retry_step FROM webhook_deliveries WHERE event_id = $1 AND endpoint_id = $2`,
      [eventId, doomed],
    );
    expect(lane).toEqual({ lane_due_at: null, lane_retry_step: null });
  });
});
