import { retryWaitQueue, webhookTopology } from '@payhook/messaging';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { startWebhookStack, type WebhookStack } from '../support/webhook-stack';
import { completePayment, createPayment, eventUntil, respondPerPayment } from '../support/webhook-scenario';
import { timeFor } from '../support/time-budget';

/** Starting its own database and two apps. */
const START_MS = timeFor({ database: 1, app: 2 });

jest.setTimeout(60_000);

/** AMQP_QUEUE_TYPE=quorum (docs/scaling.md): the same delivery, retry and dead-letter path on quorum queues. */
describe('webhook queues of type quorum', () => {
  let stack: WebhookStack;

  beforeAll(async () => {
    stack = await startWebhookStack('quorum', { AMQP_QUEUE_TYPE: 'quorum', WEBHOOK_RETRY_SCHEDULE: '300ms' });
  }, START_MS);
  afterAll(() => stack.stop());

  it('declares every webhook queue as quorum and delivers a retry through its wait queue', async () => {
    const plans = respondPerPayment(stack.receiver);
    const merchant = await stack.api.merchantWithKey('test');
    await stack.api.as(merchant).put('/v1/webhook-endpoint').send({ url: stack.receiver.url }).expect(200);
    const paymentId = await createPayment(stack.api, merchant);
    plans.set(paymentId, (attempt) => (attempt === 1 ? { status: 500, body: 'not yet' } : { status: 200 }));
    const eventId = await completePayment(stack.api, merchant, paymentId);

    const event = await eventUntil(stack.api, merchant, eventId, (e) => e.deliveryStatus === 'succeeded');
    expect(event.attempts.map((attempt) => attempt.responseStatus)).toEqual([500, 200]);

    const { stdout } = await promisify(execFile)('rabbitmqctl', [
      '-q',
      'list_queues',
      '-p',
      stack.services.vhost,
      '--no-table-headers',
      'name',
      'type',
    ]);
    const namespace = stack.services.env.AMQP_NAMESPACE;
    const types = Object.fromEntries(
      stdout
        .trim()
        .split('\n')
        .map((line) => line.split('\t'))
        .filter(([name]) => name.startsWith(`${namespace}.`)),
    );
    const topology = webhookTopology(namespace);
    expect(types).toMatchObject({
      [topology.deliveryQueue]: 'quorum',
      [topology.deadLetterQueue]: 'quorum',
      [topology.deferQueue]: 'quorum',
      [retryWaitQueue(namespace, 300)]: 'quorum',
    });
  });
});
