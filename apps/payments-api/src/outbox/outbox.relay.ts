import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { AMQP_CONNECTION, WebhookQueueClient, webhookTopology } from '@payhook/messaging';
import type { AmqpConnectionManager } from 'amqp-connection-manager';
import { Client } from 'pg';
import { lastValueFrom } from 'rxjs';
import { PaymentsApiEnv } from '../config/payments-api.env';
import { OutboxRepository, type OutboxRow } from './outbox.repository';

const BATCH_SIZE = 200;
/** Fallback when a notification is missed (listener reconnecting, notify lost). */
const POLL_INTERVAL_MS = 1_000;
/** A publish not confirmed in time fails the batch; its rows stay unpublished for the next pass. */
const CONFIRM_TIMEOUT_MS = 5_000;
const NOTIFY_CHANNEL = 'payhook_outbox';

/**
 * Moves outbox rows to RabbitMQ. Woken by LISTEN/NOTIFY the moment a row commits, and by a poll
 * as a fallback. Every API instance runs one; row locks with SKIP LOCKED keep them apart.
 */
@Injectable()
export class OutboxRelay implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(OutboxRelay.name);
  private readonly client: WebhookQueueClient;
  private listener?: Client;
  private pollTimer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private wakeAgain = false;
  private stopped = false;

  constructor(
    private readonly outbox: OutboxRepository,
    @Inject(AMQP_CONNECTION) private readonly connection: AmqpConnectionManager,
    @Inject(PaymentsApiEnv) private readonly env: PaymentsApiEnv,
  ) {
    // The publishing side of the webhook transport (ADR 0008); a (re)connect wakes the relay.
    this.client = new WebhookQueueClient({
      connection,
      topology: webhookTopology(env.AMQP_NAMESPACE, env.AMQP_QUEUE_TYPE),
      confirmTimeoutMs: CONFIRM_TIMEOUT_MS,
      onReady: () => this.wake(),
      onError: (error) => this.logger.error(`RabbitMQ channel error: ${String(error)}`),
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.client.connect();
    this.pollTimer = setInterval(() => this.wake(), POLL_INTERVAL_MS);
    this.pollTimer.unref();
    void this.listen();
    this.wake();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearInterval(this.pollTimer);
    await this.running;
    await this.listener?.end().catch(() => undefined);
    await this.client.close();
  }

  /** Starts a pass, or asks the running one to go round again so no row waits for the poll. */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.wakeAgain = true;
      return;
    }
    this.running = this.drain()
      .catch((error: unknown) => this.logger.warn(`publishing the outbox failed, will retry: ${String(error)}`))
      .finally(() => {
        this.running = undefined;
        if (this.wakeAgain) {
          this.wakeAgain = false;
          this.wake();
        }
      });
  }

  private async drain(): Promise<void> {
    while (!this.stopped && (await this.outbox.publishBatch(BATCH_SIZE, (rows) => this.publish(rows))) > 0) {
      // keep going while there is work
    }
  }

  private async publish(rows: OutboxRow[]): Promise<void> {
    // Each emit completes on the broker's confirm: only then is a row marked published.
    await Promise.all(
      rows.map((row) =>
        lastValueFrom(
          this.client.emit(row.routing_key, {
            body: row.payload,
            type: row.message_type,
            messageId: `outbox-${row.id}`,
          }),
          { defaultValue: undefined },
        ),
      ),
    );
  }

  /** A dedicated connection for LISTEN; if it drops, the poll covers the gap until it is back. */
  private async listen(): Promise<void> {
    if (this.stopped) return;
    const client = new Client({ connectionString: this.env.DATABASE_URL, application_name: 'payhook-outbox-listener' });
    const retry = () => {
      client.removeAllListeners();
      // A dead connection may still report errors while it ends; unheard, one would end the process.
      client.on('error', () => undefined);
      void client.end().catch(() => undefined);
      if (!this.stopped) setTimeout(() => void this.listen(), POLL_INTERVAL_MS).unref();
    };
    client.on('error', retry);
    client.on('notification', () => this.wake());
    // Kept before connecting, so a shutdown during the connect still ends it.
    this.listener = client;
    try {
      await client.connect();
      await client.query(`LISTEN ${NOTIFY_CHANNEL}`);
      if (this.stopped) await client.end();
    } catch {
      retry();
    }
  }
}
