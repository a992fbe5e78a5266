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
import type { ConfirmChannel, ConsumeMessage, Options } from 'amqplib';
import type { AmqpConnectionManager, ChannelWrapper } from 'amqp-connection-manager';
import { WebhookDispatcherEnv } from '../config/webhook-dispatcher.env';
import type { DeliveryTarget } from './deliveries.repository';
import { DeliverWebhookService } from './deliver-webhook.service';
import { DeliveryMetrics } from './delivery.metrics';
import { EndpointScheduler } from './endpoint-scheduler';

/** Unacknowledged messages one instance holds; more instances share the queue as competing consumers. */
const PREFETCH = 100;
const MAX_IN_FLIGHT_PER_ENDPOINT = 10;
/** A delivery that waits longer than this for its endpoint's slot goes back to the broker for a while. */
const MAX_SLOT_WAIT_MS = 250;
/** A message that keeps failing before its attempt can be recorded is poison after this many tries. */
const MAX_BACKOFFS = 10;
const BACKOFF_HEADER = 'x-payhook-backoffs';
const SHUTDOWN_GRACE_MS = 5_000;

interface Job {
  channel: ConfirmChannel;
  raw: ConsumeMessage;
  message: WebhookDeliveryRequestedV1;
  target: DeliveryTarget;
}

/**
 * The adapter between RabbitMQ and DeliverWebhookService. Acknowledges a message only after its
 * attempt is recorded and, when it failed, after its retry is safely in a wait queue (publisher
 * confirm). A crash anywhere before that leaves the message to be delivered again: at least once.
 */
@Injectable()
export class WebhookDeliveriesConsumer implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(WebhookDeliveriesConsumer.name);
  private readonly topology: WebhookTopology;
  private readonly scheduler = new EndpointScheduler<Job>({
    maxInFlightPerEndpoint: MAX_IN_FLIGHT_PER_ENDPOINT,
    maxWaitMs: MAX_SLOT_WAIT_MS,
  });
  private readonly consumerTags = new Map<ConfirmChannel, string>();
  private readonly handling = new Set<Promise<void>>();
  private channel?: ChannelWrapper;
  private sweepTimer?: NodeJS.Timeout;
  private stopping = false;

  constructor(
    private readonly deliver: DeliverWebhookService,
    private readonly metrics: DeliveryMetrics,
    @Inject(AMQP_CONNECTION) private readonly connection: AmqpConnectionManager,
    @Inject(WebhookDispatcherEnv) private readonly env: WebhookDispatcherEnv,
  ) {
    this.topology = webhookTopology(env.AMQP_NAMESPACE);
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
    this.sweepTimer = setInterval(() => this.scheduler.sweep(), MAX_SLOT_WAIT_MS / 2);
    this.sweepTimer.unref();
  }

  /** Stop taking work, give back what has not started, let running attempts finish, then close. */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    clearInterval(this.sweepTimer);
    // Every step is bounded: whatever is still unacknowledged when the connection closes goes back
    // to the queue, so a stuck step may delay the exit but never loses a delivery.
    const bound = this.env.WEBHOOK_TIMEOUT_MS + SHUTDOWN_GRACE_MS;
    await this.within(bound, 'cancel the consumers', () =>
      Promise.all([...this.consumerTags].map(([channel, tag]) => channel.cancel(tag).catch(() => undefined))),
    );
    this.scheduler.deferAllQueued();
    await this.within(bound, 'finish the running attempts', async () => {
      await Promise.all([...this.handling]);
      await this.scheduler.drain();
    });
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
      const plan = await this.deliver.plan(message);
      switch (plan.kind) {
        case 'poison':
          return this.deadLetter(channel, raw, plan.reason);
        case 'done':
          return this.ack(channel, raw);
        case 'attempt':
          this.scheduler.submit(
            plan.target.endpointKey,
            { channel, raw, message, target: plan.target },
            (job) => this.run(job),
            (job) => this.putBack(job),
          );
      }
    } catch (error) {
      await this.backOff(channel, raw, error);
    }
  }

  private async run(job: Job): Promise<void> {
    const { channel, raw, message } = job;
    try {
      const outcome = await this.deliver.attempt(message, job.target);
      if (outcome.kind === 'retry') {
        const next: WebhookDeliveryRequestedV1 = { ...message, retryStep: outcome.retryStep };
        await publishConfirmed(channel, '', retryWaitQueue(this.env.AMQP_NAMESPACE, outcome.baseDelayMs), next, {
          expiration: String(outcome.delayMs),
        });
      }
      this.ack(channel, raw);
    } catch (error) {
      await this.backOff(channel, raw, error);
    }
  }

  /** The endpoint is busy: park the delivery in the defer queue so others get the prefetch window. */
  private putBack(job: Job): void {
    if (this.stopping) return this.nack(job.channel, job.raw, true);
    this.metrics.deferrals.inc();
    this.track(
      publishConfirmed(job.channel, '', this.topology.deferQueue, job.message, {})
        .then(() => this.ack(job.channel, job.raw))
        .catch(() => this.nack(job.channel, job.raw, true)),
    );
  }

  /** A transient failure (database or broker): try again after the defer queue's wait, not at once. */
  private async backOff(channel: ConfirmChannel, raw: ConsumeMessage, error: unknown): Promise<void> {
    const backoffs = Number((raw.properties.headers ?? {})[BACKOFF_HEADER] ?? 0);
    if (backoffs >= MAX_BACKOFFS) return this.deadLetter(channel, raw, `failed ${backoffs} times: ${String(error)}`);
    this.logger.warn(`delivery failed before it was recorded, will retry: ${String(error)}`);
    try {
      await publishConfirmed(channel, '', this.topology.deferQueue, raw.content, {
        headers: { [BACKOFF_HEADER]: backoffs + 1 },
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
