import { Logger, type LoggerService } from '@nestjs/common';
import { BaseRpcContext, Server, type CustomTransportStrategy } from '@nestjs/microservices';
import type { ConfirmChannel, ConsumeMessage, Options } from 'amqplib';
import type { AmqpConnectionManager, ChannelWrapper } from 'amqp-connection-manager';
import { messageHeadersFrom } from '@payhook/observability';
import { ChannelAcks } from './channel-acks';
import {
  decide,
  MAX_BACKOFFS,
  RunningHandlers,
  rememberedHandlers,
  type QueueDecision,
  type QueueMessageContext,
  type QueueServerOptions,
} from './queue-handling';
import {
  declareRetryQueues,
  declareWebhookTopology,
  exitOnTopologyMismatch,
  retryWaitQueue,
  type WebhookTopology,
} from './webhook-topology';

/** `@Ctx()` of a webhook queue handler: the raw message and how often it has backed off. */
export class WebhookQueueContext extends BaseRpcContext<[ConsumeMessage]> implements QueueMessageContext {
  getMessage(): ConsumeMessage {
    return this.args[0];
  }

  getHeaders(): Record<string, string> {
    return correlationHeaders(this.args[0]);
  }
}

/** The message's own headers without the transport's bookkeeping: what a retry must carry on. */
function correlationHeaders(raw: ConsumeMessage): Record<string, string> {
  const own = Object.entries(raw.properties.headers ?? {}).filter(([name]) => !name.startsWith('x-'));
  return messageHeadersFrom(Object.fromEntries(own));
}

export interface WebhookQueueServerOptions extends QueueServerOptions {
  connection: AmqpConnectionManager;
  topology: WebhookTopology;
  namespace: string;
  retryScheduleMs: number[];
}
const BACKOFF_HEADER = 'x-payhook-backoffs';
/**
 * The routing key a message was first published with: the wait queues dead-letter back to the
 * delivery queue under WEBHOOK_DELIVER_ROUTING_KEY, so a re-publish carries its own here.
 */
const PATTERN_HEADER = 'x-payhook-pattern';

/** The pattern whose handler takes `raw`: the one it was first published with. */
function patternOf(raw: ConsumeMessage): string {
  const kept: unknown = (raw.properties.headers ?? {})[PATTERN_HEADER];
  return typeof kept === 'string' ? kept : raw.fields.routingKey;
}
const CLOSE_TIMEOUT_MS = 5_000;

/**
 * The webhook delivery queue as a Nest transport (ADR 0008): handlers are `@EventPattern`s whose
 * pattern is the routing key (`webhook.deliver`, WEBHOOK_QUEUE_ROUTING_KEYS), the payload is the message body as text (the
 * handler validates it against the contract), and what a handler returns decides ack, retry, back-off
 * or dead-letter. Manual acks only after the decision is carried out, publisher confirms for every
 * re-publish, the topology declared on every (re)connect, prefetch, competing consumers, and a drain
 * of running handlers on close. A crash before an ack leaves the message to be delivered again.
 */
export class WebhookQueueServer extends Server implements CustomTransportStrategy {
  protected override readonly logger: LoggerService = new Logger(WebhookQueueServer.name);
  private channel?: ChannelWrapper;
  private readonly consumerTags = new Map<ConfirmChannel, string>();
  private readonly acksOf = new Map<ConfirmChannel, ChannelAcks>();
  private readonly running = new RunningHandlers(this.logger);
  private readonly handlerFor = rememberedHandlers((pattern) => this.getHandlerByPattern(pattern));
  private stopping = false;

  constructor(private readonly options: WebhookQueueServerOptions) {
    super();
  }

  listen(callback: (...optionalParams: unknown[]) => unknown): void {
    // The setup runs again on every reconnect: topology, prefetch and consumer come back by themselves.
    this.channel = this.options.connection.createChannel({
      name: 'webhook-queue-server',
      confirm: true,
      setup: async (channel: ConfirmChannel) => {
        const acks = new ChannelAcks(channel, (count, error) => {
          this.logger.warn(
            `${count} ack(s) not sent, the channel closed (${String(error)}): RabbitMQ delivers those again`,
          );
        });
        this.acksOf.set(channel, acks);
        channel.once('close', () => {
          this.acksOf.delete(channel);
          this.consumerTags.delete(channel);
        });
        await channel.prefetch(this.options.prefetch);
        await this.declareAndConsume(channel, acks);
      },
    });
    // Setup failures are retried on the next reconnect (without a listener they would crash the
    // process), but queues that exist with other arguments never change: that one stops the app.
    this.channel.on('error', (error: unknown) => {
      this.logger.error(`RabbitMQ channel error: ${String(error)}`);
      exitOnTopologyMismatch(error);
    });
    callback();
  }

  /** Declares the topology and consumes the delivery queue on `channel`, unless the server is stopping. */
  private async declareAndConsume(channel: ConfirmChannel, acks: ChannelAcks): Promise<void> {
    const { topology, namespace, retryScheduleMs } = this.options;
    await declareWebhookTopology(channel, topology);
    await declareRetryQueues(channel, namespace, topology, retryScheduleMs);
    if (this.stopping) return;
    const { consumerTag } = await channel.consume(topology.deliveryQueue, (raw) => {
      if (raw === null) return this.consumerCancelled(channel, acks);
      acks.received(raw);
      this.running.track(this.handle(channel, acks, raw));
    });
    this.consumerTags.set(channel, consumerTag);
  }

  /**
   * The broker cancelled the consumer (its queue was deleted). The channel stays open, and
   * amqp-connection-manager sets a channel up again only after the connection drops: declare the
   * topology again and consume anew here. If that fails, the error goes to the channel's listener.
   */
  private consumerCancelled(channel: ConfirmChannel, acks: ChannelAcks): void {
    this.consumerTags.delete(channel);
    this.logger.warn(`RabbitMQ cancelled the consumer of ${this.options.topology.deliveryQueue}; consuming again`);
    this.declareAndConsume(channel, acks).catch((error: unknown) => this.channel?.emit('error', error));
  }

  /** Stops taking messages, lets running handlers finish and be acknowledged, then closes the channel. */
  async close(): Promise<void> {
    this.stopping = true;
    // Whatever is still unacknowledged when the connection closes goes back to the queue.
    await this.running.within(CLOSE_TIMEOUT_MS, 'cancel the consumers', () =>
      Promise.all([...this.consumerTags].map(([channel, tag]) => channel.cancel(tag).catch(() => undefined))),
    );
    await this.running.drain(this.options.drainTimeoutMs);
    // Acks gathered in this turn would otherwise be sent after the channel closed, and lost.
    for (const acks of this.acksOf.values()) acks.flush();
    await this.running.within(CLOSE_TIMEOUT_MS, 'close the channel', () => this.channel?.close() ?? Promise.resolve());
  }

  on(): never {
    throw new Error('WebhookQueueServer has no events to listen to');
  }

  unwrap<T>(): T {
    return this.channel as T;
  }

  private async handle(channel: ConfirmChannel, acks: ChannelAcks, raw: ConsumeMessage): Promise<void> {
    const pattern = patternOf(raw);
    const decision = await decide(
      this.handlerFor(pattern),
      pattern,
      raw.content.toString('utf8'),
      new WebhookQueueContext([raw]),
    );
    try {
      await this.carryOut(channel, acks, raw, decision);
    } catch (error) {
      // The re-publish was not confirmed: the broker gets the message back as it was.
      this.logger.warn(`could not carry out ${decision.kind}, requeued: ${String(error)}`);
      acks.settleNow(raw, () => this.settle(() => channel.nack(raw, false, true)));
    }
  }

  private async carryOut(
    channel: ConfirmChannel,
    acks: ChannelAcks,
    raw: ConsumeMessage,
    decision: QueueDecision,
  ): Promise<void> {
    switch (decision.kind) {
      case 'ack':
        return acks.ack(raw);
      case 'retry':
        await publishConfirmed(
          channel,
          retryWaitQueue(this.options.namespace, decision.scheduledDelayMs),
          Buffer.from(JSON.stringify(decision.content)),
          {
            expiration: String(decision.delayMs),
            headers: { ...correlationHeaders(raw), [PATTERN_HEADER]: patternOf(raw) },
          },
        );
        return acks.ack(raw);
      case 'dead-letter':
        return this.deadLetter(channel, acks, raw, decision.reason);
      case 'back-off': {
        const backoffs = Number((raw.properties.headers ?? {})[BACKOFF_HEADER] ?? 0);
        if (decision.counts && backoffs >= MAX_BACKOFFS) {
          return this.deadLetter(channel, acks, raw, `failed ${backoffs} times: ${decision.reason}`);
        }
        this.logger.warn(`delivery failed before it was recorded, will retry: ${decision.reason}`);
        await publishConfirmed(channel, this.options.topology.deferQueue, raw.content, {
          headers: {
            ...correlationHeaders(raw),
            [PATTERN_HEADER]: patternOf(raw),
            [BACKOFF_HEADER]: decision.counts ? backoffs + 1 : backoffs,
          },
        });
        return acks.ack(raw);
      }
    }
  }

  private deadLetter(channel: ConfirmChannel, acks: ChannelAcks, raw: ConsumeMessage, reason: string): void {
    this.logger.error(`poison message sent to ${this.options.topology.deadLetterQueue}: ${reason}`);
    this.options.onDeadLetter?.(reason);
    acks.settleNow(raw, () => this.settle(() => channel.nack(raw, false, false)));
  }

  /** A message can only be settled on the channel it came from; if that is gone, the broker redelivers it. */
  private settle(settle: () => void): void {
    try {
      settle();
    } catch {
      // channel closed: the message is redelivered, which at-least-once allows
    }
  }
}

function publishConfirmed(
  channel: ConfirmChannel,
  queue: string,
  bytes: Buffer,
  options: Options.Publish,
): Promise<void> {
  return new Promise((resolve, reject) => {
    try {
      channel.publish(
        '',
        queue,
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
