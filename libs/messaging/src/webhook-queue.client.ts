import { ClientProxy, type ReadPacket, type WritePacket } from '@nestjs/microservices';
import type { ConfirmChannel } from 'amqplib';
import type { AmqpConnectionManager, ChannelWrapper } from 'amqp-connection-manager';
import { declareWebhookTopology, exitOnTopologyMismatch, type WebhookTopology } from './webhook-topology';

/** A client of the webhook queue: it emits events; request-response is not part of either transport. */
export abstract class EventsOnlyClient extends ClientProxy {
  protected publish(_packet: ReadPacket, callback: (packet: WritePacket) => void): () => void {
    callback({ err: new Error('the webhook queue carries events only'), isDisposed: true });
    return () => undefined;
  }
}

/** One message for the webhook exchange: its body as stored (the outbox's fixed text) and its identity. */
export interface WebhookQueueMessage {
  body: string;
  type: string;
  messageId: string;
  /** The causing request's correlation (request id, trace context), for the consumer's logs and spans. */
  headers?: Record<string, string>;
}

/**
 * The publishing side of the webhook transport (ADR 0008): `emit(routingKey, message)` completes only
 * when the broker has confirmed the message, so the outbox marks a row published only then. The
 * topology is declared on every (re)connect before anything is published: a message to an exchange
 * without its queue would be dropped.
 */
export class WebhookQueueClient extends EventsOnlyClient {
  private channel?: ChannelWrapper;

  constructor(
    private readonly options: {
      connection: AmqpConnectionManager;
      topology: WebhookTopology;
      /** A publish not confirmed in time fails, and its row stays unpublished for the next pass. */
      confirmTimeoutMs: number;
      onError?: (error: unknown) => void;
    },
  ) {
    super();
  }

  /** Opens the channel once; publishes wait in the channel until the broker is there. */
  connect(): Promise<void> {
    if (this.channel) return Promise.resolve();
    const { connection, topology, confirmTimeoutMs, onError } = this.options;
    this.channel = connection.createChannel({
      name: 'webhook-queue-client',
      confirm: true,
      publishTimeout: confirmTimeoutMs,
      setup: (channel: ConfirmChannel) => declareWebhookTopology(channel, topology),
    });
    // `status` tells the publisher when it can go again (the relay wakes on 'connected').
    this.channel.on('connect', () => this._status$.next('connected'));
    this.channel.on('close', () => this._status$.next('disconnected'));
    // Setup failures are retried on the next reconnect (without a listener they would crash the
    // process), but queues that exist with other arguments never change: that one stops the app.
    this.channel.on('error', (error: unknown) => {
      onError?.(error);
      exitOnTopologyMismatch(error);
    });
    return Promise.resolve();
  }

  async close(): Promise<void> {
    await this.channel?.close();
    this.channel = undefined;
  }

  unwrap<T>(): T {
    return this.channel as T;
  }

  protected async dispatchEvent<T = unknown>(packet: ReadPacket<WebhookQueueMessage>): Promise<T> {
    if (!this.channel) throw new Error('webhook queue client is not connected');
    const message = packet.data;
    await this.channel.publish(this.options.topology.exchange, String(packet.pattern), Buffer.from(message.body), {
      persistent: true,
      contentType: 'application/json',
      type: message.type,
      messageId: message.messageId,
      headers: message.headers ?? {},
    });
    return undefined as T;
  }
}
