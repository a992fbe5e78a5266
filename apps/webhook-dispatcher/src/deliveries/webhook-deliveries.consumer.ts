import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { parseWebhookDeliveryRequestedV1, type WebhookDeliveryRequestedV1 } from '@payhook/contracts';
import {
  AMQP_CONNECTION,
  declareRetryQueues,
  declareWebhookTopology,
  retryWaitQueue,
  webhookTopology,
  type WebhookTopology,
} from '@payhook/messaging';
import { isDatabaseUnavailable } from '@payhook/persistence';
import type { ConfirmChannel, ConsumeMessage, Options } from 'amqplib';
import type { AmqpConnectionManager, ChannelWrapper } from 'amqp-connection-manager';
import { WebhookDispatcherEnv } from '../config/webhook-dispatcher.env';
import { DeliverWebhookService, type DeliveryPlan } from './deliver-webhook.service';
import { DeliveriesRepository } from './deliveries.repository';
import { DeliveryMetrics } from './delivery.metrics';
import { EndpointLanesWorker } from './endpoint-lanes.worker';
import { EndpointSlots } from './endpoint-slots';

/** Unacknowledged messages one instance holds; more instances share the queue as competing consumers. */
const PREFETCH = 100;
/** A message that keeps failing before its attempt can be recorded is poison after this many tries. */
const MAX_BACKOFFS = 10;
const BACKOFF_HEADER = 'x-payhook-backoffs';
const SHUTDOWN_GRACE_MS = 5_000;

/**
 * The adapter between RabbitMQ and DeliverWebhookService. Acknowledges a message only after its
 * attempt is recorded and, when it failed, after its retry is safely in a wait queue (publisher
 * confirm), or after it is parked in its endpoint's lane. A crash anywhere before that leaves the
 * message to be delivered again: at least once. Work for an endpoint in trouble (circuit open, or
 * every slot busy) is parked at once, so it never holds the prefetch window others need (ADR 0007).
 */
@Injectable()
export class WebhookDeliveriesConsumer implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(WebhookDeliveriesConsumer.name);
  private readonly topology: WebhookTopology;
  private readonly consumerTags = new Map<ConfirmChannel, string>();
  private readonly handling = new Set<Promise<void>>();
  private channel?: ChannelWrapper;
  private stopping = false;

  constructor(
    private readonly deliver: DeliverWebhookService,
    private readonly deliveries: DeliveriesRepository,
    private readonly slots: EndpointSlots,
    private readonly lanes: EndpointLanesWorker,
    private readonly metrics: DeliveryMetrics,
    @Inject(AMQP_CONNECTION) private readonly connection: AmqpConnectionManager,
    @Inject(WebhookDispatcherEnv) private readonly env: WebhookDispatcherEnv,
  ) {
    this.topology = webhookTopology(env.AMQP_NAMESPACE, env.AMQP_QUEUE_TYPE);
  }

  onApplicationBootstrap(): void {
    // The setup runs again on every reconnect: topology, prefetch and consumer come back by themselves.
    this.channel = this.connection.createChannel({
      name: 'webhook-deliveries',
      confirm: true,
      setup: async (channel: ConfirmChannel) => {
        await declareWebhookTopology(channel, this.topology);
        await declareRetryQueues(channel, this.env.AMQP_NAMESPACE, this.topology, this.env.retryScheduleMs);
        await channel.prefetch(PREFETCH);
        if (this.stopping) return;
        const { consumerTag } = await channel.consume(this.topology.deliveryQueue, (raw) => {
          // null: the broker cancelled the consumer (queue deleted, failover). Closing the channel
          // makes amqp-connection-manager open a new one and run this setup again.
          if (raw === null) return void channel.close().catch(() => undefined);
          this.track(this.handle(channel, raw));
        });
        this.consumerTags.set(channel, consumerTag);
        channel.once('close', () => this.consumerTags.delete(channel));
      },
    });
    // Setup failures are retried on the next reconnect; without a listener they would crash the process.
    this.channel.on('error', (error: unknown) => this.logger.error(`RabbitMQ channel error: ${String(error)}`));
  }

  /** Stop taking work, let running attempts finish and be acknowledged, then close. */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    // Every step is bounded: whatever is still unacknowledged when the connection closes goes back
    // to the queue, so a stuck step may delay the exit but never loses a delivery.
    const bound = this.env.WEBHOOK_TIMEOUT_MS + SHUTDOWN_GRACE_MS;
    await this.within(bound, 'cancel the consumers', () =>
      Promise.all([...this.consumerTags].map(([channel, tag]) => channel.cancel(tag).catch(() => undefined))),
    );
    await this.within(bound, 'finish the running attempts', () => Promise.all([...this.handling]));
    await this.within(SHUTDOWN_GRACE_MS, 'close the channel', () => this.channel?.close() ?? Promise.resolve());
  }

  private async within(ms: number, step: string, work: () => Promise<unknown>): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), ms)));
    const outcome = await Promise.race([work().then(() => 'done' as const), late]);
    clearTimeout(timer);
    if (outcome === 'late') this.logger.warn(`shutdown: gave up waiting to ${step} after ${ms} ms`);
  }

  private track(work: Promise<void>): void {
    this.handling.add(work);
    void work.finally(() => this.handling.delete(work));
  }

  private async handle(channel: ConfirmChannel, raw: ConsumeMessage): Promise<void> {
    const message = parseWebhookDeliveryRequestedV1(raw.content.toString('utf8'));
    if (!message) return this.deadLetter(channel, raw, 'not a webhook.delivery-requested.v1 message');
    try {
      const plan = await this.deliver.plan(message.eventId, message);
      switch (plan.kind) {
        case 'poison':
          return this.deadLetter(channel, raw, plan.reason);
        case 'done':
          return this.ack(channel, raw);
        case 'park':
          return await this.park(channel, raw, message);
        case 'attempt':
          return await this.attempt(channel, raw, message, plan.target);
      }
    } catch (error) {
      await this.backOff(channel, raw, error);
    }
  }

  /** Runs the attempt in one of its endpoint's slots, or parks it when they are all busy. */
  private async attempt(
    channel: ConfirmChannel,
    raw: ConsumeMessage,
    message: WebhookDeliveryRequestedV1,
    target: Extract<DeliveryPlan, { kind: 'attempt' }>['target'],
  ): Promise<void> {
    const slot = message.manual ? this.slots.takeAnyway(target.endpointKey) : this.slots.tryTake(target.endpointKey);
    if (!slot) return this.park(channel, raw, message);
    try {
      const outcome = await this.deliver.attempt(message, target, 'broker', slot);
      if (outcome.kind === 'retry') {
        const next: WebhookDeliveryRequestedV1 = { ...message, retryStep: outcome.retryStep };
        await publishConfirmed(channel, '', retryWaitQueue(this.env.AMQP_NAMESPACE, outcome.baseDelayMs), next, {
          expiration: String(outcome.delayMs),
        });
      }
      this.ack(channel, raw);
    } finally {
      slot.release();
    }
  }

  /** Moves the delivery into its endpoint's lane in Postgres, due now, and lets the broker forget it. */
  private async park(channel: ConfirmChannel, raw: ConsumeMessage, message: WebhookDeliveryRequestedV1): Promise<void> {
    await this.deliveries.park(message.eventId, message.retryStep, new Date());
    this.metrics.parked.inc();
    this.ack(channel, raw);
    this.lanes.wake();
  }

  /** A transient failure (database or broker): try again after the defer queue's wait, not at once. */
  private async backOff(channel: ConfirmChannel, raw: ConsumeMessage, error: unknown): Promise<void> {
    // A database outage is no fault of the message: it waits out the outage however long it lasts.
    const counts = !isDatabaseUnavailable(error);
    const backoffs = Number((raw.properties.headers ?? {})[BACKOFF_HEADER] ?? 0);
    if (counts && backoffs >= MAX_BACKOFFS) {
      return this.deadLetter(channel, raw, `failed ${backoffs} times: ${String(error)}`);
    }
    this.logger.warn(`delivery failed before it was recorded, will retry: ${String(error)}`);
    try {
      await publishConfirmed(channel, '', this.topology.deferQueue, raw.content, {
        headers: { [BACKOFF_HEADER]: counts ? backoffs + 1 : backoffs },
      });
      this.ack(channel, raw);
    } catch {
      this.nack(channel, raw, true);
    }
  }

  private deadLetter(channel: ConfirmChannel, raw: ConsumeMessage, reason: string): void {
    this.logger.error(`poison message sent to ${this.topology.deadLetterQueue}: ${reason}`);
    this.metrics.poisonMessages.inc();
    this.nack(channel, raw, false);
  }

  /** A message can only be acknowledged on the channel it came from; if that is gone, the broker redelivers it. */
  private ack(channel: ConfirmChannel, raw: ConsumeMessage): void {
    try {
      channel.ack(raw);
    } catch {
      // channel closed: the message is redelivered, which at-least-once allows
    }
  }

  private nack(channel: ConfirmChannel, raw: ConsumeMessage, requeue: boolean): void {
    try {
      channel.nack(raw, false, requeue);
    } catch {
      // channel closed: the message is redelivered
    }
  }
}

function publishConfirmed(
  channel: ConfirmChannel,
  exchange: string,
  routingKey: string,
  content: WebhookDeliveryRequestedV1 | Buffer,
  options: Options.Publish,
): Promise<void> {
  const bytes = Buffer.isBuffer(content) ? content : Buffer.from(JSON.stringify(content));
  return new Promise((resolve, reject) => {
    try {
      channel.publish(
        exchange,
        routingKey,
        bytes,
        { ...options, persistent: true, contentType: 'application/json' },
        (error: unknown) =>
          error ? reject(error instanceof Error ? error : new Error('publish not confirmed')) : resolve(),
      );
    } catch (error) {
      reject(error instanceof Error ? error : new Error(String(error)));
    }
  });
}
