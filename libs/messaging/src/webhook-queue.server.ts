import { Logger, type LoggerService } from '@nestjs/common';
import { BaseRpcContext, Server, type CustomTransportStrategy } from '@nestjs/microservices';
import type { ConfirmChannel, ConsumeMessage, Options } from 'amqplib';
import type { AmqpConnectionManager, ChannelWrapper } from 'amqp-connection-manager';
import { isObservable, lastValueFrom } from 'rxjs';
import { declareRetryQueues, declareWebhookTopology, type WebhookTopology } from './webhook-topology';

/**
 * What a handler decides for the message it was given; the transport carries it out and only then
 * acknowledges. A handler that throws gets `back-off` (counted toward the dead-letter limit).
 */
export type QueueDecision =
  | { kind: 'ack' }
  /** Publish `content` to `waitQueue` with a per-message expiration (confirmed), then ack. */
  | { kind: 'retry'; content: unknown; waitQueue: string; expirationMs: number }
  /** Poison: to the dead-letter queue for a person to look at. */
  | { kind: 'dead-letter'; reason: string }
  /** Nothing was recorded: try again after the defer queue's wait; `counts` toward MAX_BACKOFFS. */
  | { kind: 'back-off'; reason: string; counts: boolean };

/** `@Ctx()` of a webhook queue handler: the raw message and how often it has backed off. */
export class WebhookQueueContext extends BaseRpcContext<[ConsumeMessage]> {
  getMessage(): ConsumeMessage {
    return this.args[0];
  }
}

export interface WebhookQueueServerOptions {
  connection: AmqpConnectionManager;
  topology: WebhookTopology;
  namespace: string;
  retryScheduleMs: number[];
  /** Unacknowledged messages this instance holds; more instances share the queue as competing consumers. */
  prefetch: number;
  /** How long close() waits for running handlers before it closes the channel anyway. */
  drainTimeoutMs: number;
  /** Called for every message sent to the dead-letter queue (a metric). */
  onDeadLetter?: (reason: string) => void;
}

/** A message that keeps backing off before anything could be recorded is poison after this many tries. */
const MAX_BACKOFFS = 10;
const BACKOFF_HEADER = 'x-payhook-backoffs';
const CLOSE_TIMEOUT_MS = 5_000;

/**
 * The webhook delivery queue as a Nest transport (ADR 0008): handlers are `@EventPattern`s whose
 * pattern is the routing key (`webhook.deliver`), the payload is the message body as text (the
 * handler validates it against the contract), and what a handler returns decides ack, retry, back-off
 * or dead-letter. Manual acks only after the decision is carried out, publisher confirms for every
 * re-publish, the topology declared on every (re)connect, prefetch, competing consumers, and a drain
 * of running handlers on close. A crash before an ack leaves the message to be delivered again.
 */
export class WebhookQueueServer extends Server implements CustomTransportStrategy {
  protected override readonly logger: LoggerService = new Logger(WebhookQueueServer.name);
  private channel?: ChannelWrapper;
  private readonly consumerTags = new Map<ConfirmChannel, string>();
  private readonly running = new Set<Promise<void>>();
  private stopping = false;

  constructor(private readonly options: WebhookQueueServerOptions) {
    super();
  }

  listen(callback: (...optionalParams: unknown[]) => unknown): void {
    const { connection, topology, namespace, retryScheduleMs, prefetch } = this.options;
    // The setup runs again on every reconnect: topology, prefetch and consumer come back by themselves.
    this.channel = connection.createChannel({
      name: 'webhook-queue-server',
      confirm: true,
      setup: async (channel: ConfirmChannel) => {
        await declareWebhookTopology(channel, topology);
        await declareRetryQueues(channel, namespace, topology, retryScheduleMs);
        await channel.prefetch(prefetch);
        if (this.stopping) return;
        const { consumerTag } = await channel.consume(topology.deliveryQueue, (raw) => {
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
    this.channel.on('error', (error: unknown) => {
      this.logger.error(`RabbitMQ channel error: ${String(error)}`);
    });
    callback();
  }

  /** Stops taking messages, lets running handlers finish and be acknowledged, then closes the channel. */
  async close(): Promise<void> {
    this.stopping = true;
    // Every step is bounded: whatever is still unacknowledged when the connection closes goes back
    // to the queue, so a stuck step may delay the exit but never loses a delivery.
    await this.within(CLOSE_TIMEOUT_MS, 'cancel the consumers', () =>
      Promise.all([...this.consumerTags].map(([channel, tag]) => channel.cancel(tag).catch(() => undefined))),
    );
    await this.within(this.options.drainTimeoutMs, 'finish the running handlers', () => Promise.all(this.running));
    await this.within(CLOSE_TIMEOUT_MS, 'close the channel', () => this.channel?.close() ?? Promise.resolve());
  }

  on(): never {
    throw new Error('WebhookQueueServer has no events to listen to');
  }

  unwrap<T>(): T {
    return this.channel as T;
  }

  private track(work: Promise<void>): void {
    this.running.add(work);
    void work.finally(() => this.running.delete(work));
  }

  private async handle(channel: ConfirmChannel, raw: ConsumeMessage): Promise<void> {
    const decision = await this.decide(raw);
    try {
      await this.carryOut(channel, raw, decision);
    } catch (error) {
      // The re-publish was not confirmed: the broker gets the message back as it was.
      this.logger.warn(`could not carry out ${decision.kind}, requeued: ${String(error)}`);
      this.settle(() => channel.nack(raw, false, true));
    }
  }

  private async decide(raw: ConsumeMessage): Promise<QueueDecision> {
    const handler = this.getHandlerByPattern(raw.fields.routingKey);
    if (!handler) return { kind: 'dead-letter', reason: `no handler for ${raw.fields.routingKey}` };
    try {
      const result: unknown = await handler(raw.content.toString('utf8'), new WebhookQueueContext([raw]));
      const decision = (isObservable(result) ? await lastValueFrom(result, { defaultValue: undefined }) : result) as
        QueueDecision | undefined;
      return decision ?? { kind: 'ack' };
    } catch (error) {
      return { kind: 'back-off', reason: describe(error), counts: true };
    }
  }

  private async carryOut(channel: ConfirmChannel, raw: ConsumeMessage, decision: QueueDecision): Promise<void> {
    switch (decision.kind) {
      case 'ack':
        return this.settle(() => channel.ack(raw));
      case 'retry':
        await publishConfirmed(channel, decision.waitQueue, Buffer.from(JSON.stringify(decision.content)), {
          expiration: String(decision.expirationMs),
        });
        return this.settle(() => channel.ack(raw));
      case 'dead-letter':
        return this.deadLetter(channel, raw, decision.reason);
      case 'back-off': {
        const backoffs = Number((raw.properties.headers ?? {})[BACKOFF_HEADER] ?? 0);
        if (decision.counts && backoffs >= MAX_BACKOFFS) {
          return this.deadLetter(channel, raw, `failed ${backoffs} times: ${decision.reason}`);
        }
        this.logger.warn(`delivery failed before it was recorded, will retry: ${decision.reason}`);
        await publishConfirmed(channel, this.options.topology.deferQueue, raw.content, {
          headers: { [BACKOFF_HEADER]: decision.counts ? backoffs + 1 : backoffs },
        });
        return this.settle(() => channel.ack(raw));
      }
    }
  }

  private deadLetter(channel: ConfirmChannel, raw: ConsumeMessage, reason: string): void {
    this.logger.error(`poison message sent to ${this.options.topology.deadLetterQueue}: ${reason}`);
    this.options.onDeadLetter?.(reason);
    this.settle(() => channel.nack(raw, false, false));
  }

  /** A message can only be settled on the channel it came from; if that is gone, the broker redelivers it. */
  private settle(settle: () => void): void {
    try {
      settle();
    } catch {
      // channel closed: the message is redelivered, which at-least-once allows
    }
  }

  private async within(ms: number, step: string, work: () => Promise<unknown>): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), ms)));
    const outcome = await Promise.race([work().then(() => 'done' as const), late]);
    clearTimeout(timer);
    if (outcome === 'late') this.logger.warn(`shutdown: gave up waiting to ${step} after ${ms} ms`);
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'object' && error !== null && 'message' in error) return String(error.message);
  return String(error);
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
