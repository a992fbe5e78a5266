import type { ConfirmChannel } from 'amqplib';
import { namespaced } from './amqp-connection';

export const WEBHOOK_DELIVER_ROUTING_KEY = 'webhook.deliver';
/** payments-api asks the dispatcher to send a scope's failed deliveries again (webhook.recovery-requested.v1). */
export const WEBHOOK_RECOVER_ROUTING_KEY = 'webhook.recover';
/** payments-api tells the dispatcher an endpoint was deleted (webhook.endpoint-deleted.v1). */
export const WEBHOOK_ENDPOINT_DELETED_ROUTING_KEY = 'webhook.endpoint-deleted';

/**
 * Every routing key the delivery queue takes. The dispatcher's `@EventPattern`s are these keys; a wait
 * (retry or back-off) brings a message back under WEBHOOK_DELIVER_ROUTING_KEY, so the server keeps its
 * first key in a header (PATTERN_HEADER).
 */
export const WEBHOOK_QUEUE_ROUTING_KEYS = [
  WEBHOOK_DELIVER_ROUTING_KEY,
  WEBHOOK_RECOVER_ROUTING_KEY,
  WEBHOOK_ENDPOINT_DELETED_ROUTING_KEY,
] as const;

/** Names of everything the webhook path uses on the broker, under one namespace. */
export interface WebhookTopology {
  /** Direct exchange the outbox relay publishes delivery requests to. */
  exchange: string;
  deliverRoutingKey: string;
  /** Competing consumers (webhook-dispatcher instances) read this durable queue. */
  deliveryQueue: string;
  /** Poison messages (unparseable, unknown event) end here for a person to look at. */
  deadLetterExchange: string;
  deadLetterQueue: string;
  /** Short wait for work put back because its endpoint already has enough in flight. */
  deferQueue: string;
  deferDelayMs: number;
  /** AMQP_QUEUE_TYPE: every queue above is of this type. */
  queueType: QueueType;
}

export type QueueType = 'classic' | 'quorum';

export function webhookTopology(namespace: string, queueType: QueueType = 'classic'): WebhookTopology {
  return {
    queueType,
    exchange: namespaced(namespace, 'webhooks'),
    deliverRoutingKey: WEBHOOK_DELIVER_ROUTING_KEY,
    deliveryQueue: namespaced(namespace, 'webhook-deliveries'),
    deadLetterExchange: namespaced(namespace, 'webhooks.dead-letter'),
    deadLetterQueue: namespaced(namespace, 'webhook-deliveries.dead'),
    deferQueue: namespaced(namespace, 'webhook-wait.defer'),
    deferDelayMs: 1_000,
  };
}

/**
 * The retry wait for one step of WEBHOOK_RETRY_SCHEDULE: messages sit here with a per-message
 * expiration and are dead-lettered back to the delivery queue when it runs out. The wait lives in
 * RabbitMQ, so it survives any dispatcher restart.
 */
export function retryWaitQueue(namespace: string, delayMs: number): string {
  return namespaced(namespace, `webhook-wait.${delayMs}ms`);
}

const backToDelivery = (topology: WebhookTopology): Record<string, string> => ({
  'x-dead-letter-exchange': topology.exchange,
  'x-dead-letter-routing-key': topology.deliverRoutingKey,
});

/**
 * How often a quorum queue may hand out one message before it dead-letters it as poison, set
 * explicitly: since RabbitMQ 4.0 the broker's default is 20. Only a message that
 * went back unsettled counts: a dispatcher's channel closing with it in hand (a crash, a failover,
 * a broker node going) or a nack with requeue (sent only when a confirmed re-publish failed).
 * Retries and back-offs are fresh confirmed messages, so they never count. A valid delivery request
 * goes back a few times in a bad hour; only one that kills every dispatcher it reaches comes near this.
 */
export const QUORUM_DELIVERY_LIMIT = 1_000;

/**
 * A queue's arguments for the topology's queue type. A quorum queue dead-letters at most once by
 * default; a retry wait or a poison message must never be dropped on the way, so dead-lettering
 * is at least once, which RabbitMQ (3.10+) allows only with reject-publish overflow.
 */
function queueArguments(topology: WebhookTopology, args: Record<string, unknown> = {}): Record<string, unknown> {
  if (topology.queueType === 'classic') return args;
  const deadLetters = 'x-dead-letter-exchange' in args;
  return {
    ...args,
    'x-queue-type': 'quorum',
    'x-delivery-limit': QUORUM_DELIVERY_LIMIT,
    ...(deadLetters ? { 'x-dead-letter-strategy': 'at-least-once', 'x-overflow': 'reject-publish' } : {}),
  };
}

/**
 * Declares (idempotently) the durable exchange, delivery queue and dead-letter place. Both apps call
 * it: the relay must never publish before the queue exists, or the broker would drop the message.
 */
export async function declareWebhookTopology(channel: ConfirmChannel, topology: WebhookTopology): Promise<void> {
  await channel.assertExchange(topology.exchange, 'direct', { durable: true });
  await channel.assertExchange(topology.deadLetterExchange, 'fanout', { durable: true });
  await assertQueue(channel, topology, topology.deadLetterQueue, queueArguments(topology));
  await channel.bindQueue(topology.deadLetterQueue, topology.deadLetterExchange, '');
  await assertQueue(
    channel,
    topology,
    topology.deliveryQueue,
    queueArguments(topology, { 'x-dead-letter-exchange': topology.deadLetterExchange }),
  );
  for (const routingKey of WEBHOOK_QUEUE_ROUTING_KEYS) {
    await channel.bindQueue(topology.deliveryQueue, topology.exchange, routingKey);
  }
}

/** A queue exists with other arguments than this start declares; it never changes in place. */
export class QueueTopologyMismatch extends Error {
  override name = 'QueueTopologyMismatch';
}

/**
 * A durable queue with `args`. The broker refuses a queue that exists with other arguments: another
 * type after AMQP_QUEUE_TYPE changed, or quorum queues made before each set its delivery limit. The
 * error then says what to do, since neither changes in place.
 */
async function assertQueue(
  channel: ConfirmChannel,
  topology: WebhookTopology,
  queue: string,
  args: Record<string, unknown>,
): Promise<void> {
  try {
    await channel.assertQueue(queue, { durable: true, arguments: args });
  } catch (error) {
    if (!/inequivalent arg/.test(String(error))) throw error;
    throw new QueueTopologyMismatch(
      `the queue ${queue} exists with other arguments than AMQP_QUEUE_TYPE=${topology.queueType} declares ` +
        `(${String(error)}). A queue's type and delivery limit never change in place: set AMQP_QUEUE_TYPE to the ` +
        `type the queues were made with, or move to a new AMQP_NAMESPACE beside the old one (docs/scaling.md)`,
      { cause: error },
    );
  }
}

/**
 * For the channels' error listeners: an app whose queues cannot be declared would take payments and
 * deliver nothing while it looks ready, so a mismatch ends the process with the one line that says
 * why (at its start, when the topology is first declared). Other channel errors are retried.
 */
export function exitOnTopologyMismatch(error: unknown): void {
  if (!(error instanceof QueueTopologyMismatch)) return;
  console.error(`payhook cannot start: ${error.message}`);
  process.exit(1);
}

/** The dispatcher's extra queues: one wait queue per retry delay and the defer queue. */
export async function declareRetryQueues(
  channel: ConfirmChannel,
  namespace: string,
  topology: WebhookTopology,
  delaysMs: number[],
): Promise<void> {
  for (const delayMs of new Set(delaysMs)) {
    await assertQueue(
      channel,
      topology,
      retryWaitQueue(namespace, delayMs),
      queueArguments(topology, backToDelivery(topology)),
    );
  }
  await assertQueue(
    channel,
    topology,
    topology.deferQueue,
    queueArguments(topology, { ...backToDelivery(topology), 'x-message-ttl': topology.deferDelayMs }),
  );
}
