import type { INestApplication } from '@nestjs/common';
import { declareWebhookTopology, QUORUM_DELIVERY_LIMIT, retryWaitQueue, webhookTopology } from '@payhook/messaging';
import { connect, type ChannelModel, type ConsumeMessage } from 'amqplib';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { isolatedServices, type IsolatedServices } from '../support/isolated-services';
import { PaymentsApiHarness } from '../support/payments-api.harness';
import { startDispatcher } from '../support/webhook-dispatcher.harness';
import { WebhookReceiver } from '../support/webhook-receiver';
import { startWebhookStack, type WebhookStack } from '../support/webhook-stack';
import { completePayment, createPayment, eventUntil, respondPerPayment } from '../support/webhook-scenario';
import { timeFor } from '../support/time-budget';
import { pollUntil } from '../support/poll-until';

/** `rabbitmqctl list_queues name <column>` of a vhost, by queue name. */
async function queueColumn(vhost: string, column: string): Promise<Record<string, string>> {
  const { stdout } = await promisify(execFile)('rabbitmqctl', [
    '-q',
    'list_queues',
    '-p',
    vhost,
    '--no-table-headers',
    'name',
    column,
  ]);
  return Object.fromEntries(
    stdout
      .trim()
      .split('\n')
      .map((line) => line.split('\t')),
  );
}

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

    const namespace = stack.services.env.AMQP_NAMESPACE;
    const types = await queueColumn(stack.services.vhost, 'type');
    const topology = webhookTopology(namespace);
    expect(types).toMatchObject({
      [topology.deliveryQueue]: 'quorum',
      [topology.deadLetterQueue]: 'quorum',
      [topology.deferQueue]: 'quorum',
      [retryWaitQueue(namespace, 300)]: 'quorum',
    });
  });
});

/**
 * The broker cancels a consumer whose queue is deleted (an operator's mistake, a policy). The
 * dispatcher's channel stays open, so it declares the queue again and consumes anew by itself.
 */
describe('a delivery queue deleted under the dispatcher', () => {
  let stack: WebhookStack;
  let broker: ChannelModel | undefined;

  beforeAll(async () => {
    stack = await startWebhookStack('queue_deleted', { AMQP_QUEUE_TYPE: 'quorum' });
  }, START_MS);
  afterAll(async () => {
    await broker?.close().catch(() => undefined);
    await stack.stop();
  });

  it('is declared and consumed again, and the next event is delivered', async () => {
    const { vhost, env } = stack.services;
    const { deliveryQueue } = webhookTopology(env.AMQP_NAMESPACE, 'quorum');
    const consumers = () => queueColumn(vhost, 'consumers').then((column) => column[deliveryQueue]);
    await pollUntil(consumers, (count) => count === '1');

    broker = await connect(env.AMQP_URL);
    await (await broker.createChannel()).deleteQueue(deliveryQueue);
    await pollUntil(consumers, (count) => count === '1');

    const merchant = await stack.api.merchantWithKey('test');
    await stack.api.as(merchant).put('/v1/webhook-endpoint').send({ url: stack.receiver.url }).expect(200);
    const eventId = await completePayment(stack.api, merchant, await createPayment(stack.api, merchant));
    const event = await eventUntil(stack.api, merchant, eventId, (e) => e.deliveryStatus === 'succeeded');
    expect(event.attempts.map((attempt) => attempt.responseStatus)).toEqual([200]);
  });
});

/**
 * A quorum queue never dead-letters a valid delivery because the broker handed it out
 * many times. Since RabbitMQ 4.0 the broker's own default would after 20; payhook sets the limit
 * on every quorum queue itself.
 */
describe('a delivery request the broker handed out many times, on quorum queues', () => {
  const RETURNS = 25;
  let services: IsolatedServices;
  let api: PaymentsApiHarness;
  let receiver: WebhookReceiver;
  let dispatcher: INestApplication | undefined;
  let broker: ChannelModel | undefined;

  beforeAll(
    async () => {
      services = await isolatedServices('delivery_limit');
      [api, receiver] = await Promise.all([
        PaymentsApiHarness.start({ ...services.env, AMQP_QUEUE_TYPE: 'quorum' }),
        WebhookReceiver.start(),
      ]);
    },
    timeFor({ database: 1, app: 1 }),
  );
  afterAll(async () => {
    await broker?.close().catch(() => undefined);
    await dispatcher?.close();
    await api.stop();
    await receiver.stop();
    await services.drop();
  });

  it(`is still delivered after going back to the queue ${RETURNS} times`, async () => {
    const namespace = services.env.AMQP_NAMESPACE;
    const topology = webhookTopology(namespace, 'quorum');
    const merchant = await api.merchantWithKey('test');
    await api.as(merchant).put('/v1/webhook-endpoint').send({ url: receiver.url }).expect(200);
    const eventId = await completePayment(api, merchant, await createPayment(api, merchant));

    // Before any dispatcher runs, a consumer of ours takes the relayed request and puts it back, again and again.
    broker = await connect(services.env.AMQP_URL);
    const channel = await broker.createChannel();
    const returned = await new Promise<ConsumeMessage>((resolve, reject) => {
      void channel
        .consume(topology.deliveryQueue, (message) => {
          if (message === null) return reject(new Error('the consumer was cancelled'));
          const count = Number(message.properties.headers?.['x-delivery-count'] ?? 0);
          if (count >= RETURNS) return resolve(message);
          channel.reject(message, true); // back to the queue, counted as a delivery (RabbitMQ 4.3+ counts rejects, not nacks)
        })
        .catch(reject);
    });
    expect(JSON.parse(returned.content.toString('utf8'))).toMatchObject({ eventId });
    await broker.close(); // the message goes back once more, unacknowledged
    broker = undefined;

    dispatcher = await startDispatcher({ ...services.env, AMQP_QUEUE_TYPE: 'quorum' });
    const event = await eventUntil(api, merchant, eventId, (e) => e.deliveryStatus === 'succeeded');
    expect(event.attempts.map((attempt) => attempt.responseStatus)).toEqual([200]);
    expect(receiver.received.map((delivery) => delivery.headers['service-event-id'])).toEqual([eventId]);

    const arguments_ = await queueColumn(services.vhost, 'arguments');
    const messages = await queueColumn(services.vhost, 'messages');
    for (const queue of [topology.deliveryQueue, topology.deadLetterQueue, topology.deferQueue]) {
      expect(arguments_[queue]).toContain(`{"x-delivery-limit",${QUORUM_DELIVERY_LIMIT}}`);
    }
    expect(messages[topology.deadLetterQueue]).toBe('0');
  });
});

/**
 * A queue never changes type or delivery limit in place. An app whose queues the broker refuses would
 * take payments and deliver nothing while it looked ready: it stops with the line that says what to do.
 */
describe('queues declared before with another type', () => {
  let services: IsolatedServices;
  let broker: ChannelModel;

  beforeAll(
    async () => {
      services = await isolatedServices('queue_type_change');
      broker = await connect(services.env.AMQP_URL);
      // The queues of an older deployment: classic ones.
      await declareWebhookTopology(
        await broker.createConfirmChannel(),
        webhookTopology(services.env.AMQP_NAMESPACE, 'classic'),
      );
    },
    timeFor({ database: 1 }),
  );
  afterAll(async () => {
    await broker.close().catch(() => undefined);
    await services.drop();
  });

  it('are refused with what to do', async () => {
    const refused = await broker.createConfirmChannel();
    refused.on('error', () => undefined); // the broker closes the channel; the declare's rejection says why
    await expect(
      declareWebhookTopology(refused, webhookTopology(services.env.AMQP_NAMESPACE, 'quorum')),
    ).rejects.toThrow(
      /exists with other arguments than AMQP_QUEUE_TYPE=quorum declares .*inequivalent arg 'x-queue-type'.*set AMQP_QUEUE_TYPE to the type the queues were made with, or move to a new AMQP_NAMESPACE/,
    );
  });

  it(
    'stop an app that meets them, with that line, instead of letting it look ready',
    async () => {
      // The app runs in this test process: its exit is watched here instead of ending the test run.
      const exited = new Promise<unknown>((resolve) => {
        jest.spyOn(process, 'exit').mockImplementation((code) => {
          resolve(code);
          return undefined as never;
        });
      });
      const lines: string[] = [];
      jest.spyOn(console, 'error').mockImplementation((line: unknown) => void lines.push(String(line)));
      const api = await PaymentsApiHarness.start({ ...services.env, AMQP_QUEUE_TYPE: 'quorum' });
      try {
        await expect(exited).resolves.toBe(1);
        expect(lines).toContainEqual(
          expect.stringMatching(
            /^payhook cannot start: the queue .* exists with other arguments than AMQP_QUEUE_TYPE=quorum/,
          ),
        );
      } finally {
        jest.restoreAllMocks();
        await api.stop();
      }
    },
    timeFor({ app: 1 }),
  );
});
