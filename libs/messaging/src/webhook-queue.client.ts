import { ClientProxy, type ReadPacket, type WritePacket } from '@nestjs/microservices';
import type { ConfirmChannel } from 'amqplib';
import type { AmqpConnectionManager, ChannelWrapper } from 'amqp-connection-manager';
import { declareWebhookTopology, type WebhookTopology } from './webhook-topology';

/** One message for the webhook exchange: its body as stored (the outbox's fixed text) and its identity. */
export interface WebhookQueueMessage {
  body: string;
  type: string;
  messageId: string;
}

/**
 * The publishing side of the webhook transport (ADR 0008): `emit(routingKey, message)` completes only
 * when the broker has confirmed the message, so the outbox marks a row published only then. The
 * topology is declared on every (re)connect before anything is published: a message to an exchange
 * without its queue would be dropped. Request-response is not part of this transport.
 */
export class WebhookQueueClient extends ClientProxy {
  private channel?: ChannelWrapper;

  constructor(
    private readonly options: {
      connection: AmqpConnectionManager;
      topology: WebhookTopology;
      /** A publish not confirmed in time fails, and its row stays unpublished for the next pass. */
      confirmTimeoutMs: number;
      /** Called whenever the channel is (re)connected and ready to publish. */
      onReady?: () => void;
      onError?: (error: unknown) => void;
    },
  ) {
    super();
  }

  /** Opens the channel once; publishes wait in the channel until the broker is there. */
  connect(): Promise<void> {
    if (this.channel) return Promise.resolve();
    const { connection, topology, confirmTimeoutMs, onReady, onError } = this.options;
    this.channel = connection.createChannel({
      name: 'webhook-queue-client',
      confirm: true,
      publishTimeout: confirmTimeoutMs,
      setup: (channel: ConfirmChannel) => declareWebhookTopology(channel, topology),
    });
    if (onReady) this.channel.on('connect', onReady);
    // Setup failures are retried on the next reconnect; without a listener they would crash the process.
    this.channel.on('error', (error: unknown) => onError?.(error));
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
    });
    return undefined as T;
  }

  protected publish(_packet: ReadPacket, callback: (packet: WritePacket) => void): () => void {
    callback({ err: new Error('the webhook queue carries events only'), isDisposed: true });
    return () => undefined;
  }
}
