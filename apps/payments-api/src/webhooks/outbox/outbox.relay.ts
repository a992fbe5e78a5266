import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { ClientProxy } from '@nestjs/microservices';
import { WebhookQueue } from '@payhook/messaging';
import { inSpan, messageHeadersFrom, SpanKind, traceHeaders } from '@payhook/observability';
import { NotificationListener } from '@payhook/persistence';
import { lastValueFrom, type Subscription } from 'rxjs';
import { PaymentsApiEnv } from '../../platform/config/payments-api.env';
import { OutboxRepository, type OutboxRow } from './outbox.repository';

const BATCH_SIZE = 200;
/** Fallback when a notification is missed (listener reconnecting, notify lost). */
const POLL_INTERVAL_MS = 1_000;
const NOTIFY_CHANNEL = 'payhook_outbox';
/**
 * Passes running at once. A pass holds its rows until the broker confirms them; a row committed
 * meanwhile is taken by a second pass at once instead of waiting for the first to end.
 */
const MAX_PASSES = 2;

/**
 * Moves outbox rows to the webhook queue (RabbitMQ, or Postgres in local mode). Woken by
 * LISTEN/NOTIFY the moment a row commits, and by a poll as a fallback. Every API instance runs one;
 * row locks with SKIP LOCKED keep them apart.
 */
@Injectable()
export class OutboxRelay implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(OutboxRelay.name);
  private readonly client: ClientProxy;
  private readonly listener: NotificationListener;
  private status?: Subscription;
  private pollTimer?: NodeJS.Timeout;
  private readonly running = new Set<Promise<void>>();
  private wakeAgain = false;
  private stopped = false;

  constructor(
    private readonly outbox: OutboxRepository,
    queue: WebhookQueue,
    @Inject(PaymentsApiEnv) env: PaymentsApiEnv,
  ) {
    // The publishing side of the webhook transport (ADR 0008, 0009).
    this.client = queue.client();
    this.listener = new NotificationListener({
      url: env.DATABASE_URL,
      channel: NOTIFY_CHANNEL,
      applicationName: 'payhook-outbox-listener',
      onNotify: () => this.wake(),
      retryMs: POLL_INTERVAL_MS,
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    // A (re)connect of the transport wakes the relay: rows may have waited for it.
    this.status = this.client.status.subscribe((status) => status === 'connected' && this.wake());
    await this.client.connect();
    this.pollTimer = setInterval(() => this.wake(), POLL_INTERVAL_MS);
    this.pollTimer.unref();
    void this.listener.start();
    this.wake();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearInterval(this.pollTimer);
    this.status?.unsubscribe();
    await Promise.all(this.running);
    await this.listener.stop();
    await this.client.close();
  }

  /** Starts a pass, or, with MAX_PASSES running, asks for one more as one ends, so no row waits for the poll. */
  wake(): void {
    if (this.stopped) return;
    if (this.running.size >= MAX_PASSES) {
      this.wakeAgain = true;
      return;
    }
    const pass: Promise<void> = this.drain()
      .catch((error: unknown) => this.logger.warn(`publishing the outbox failed, will retry: ${String(error)}`))
      .finally(() => {
        this.running.delete(pass);
        if (this.wakeAgain) {
          this.wakeAgain = false;
          this.wake();
        }
      });
    this.running.add(pass);
  }

  /**
   * Goes on only while a pass comes back full: rows beyond its LIMIT are waiting. A row committed
   * during a pass wakes the relay with its own NOTIFY (or the poll), so a pass that was not full
   * ends, rather than run another that finds nothing: at 200 commits a second that was every
   * other pass, each a transaction of the API's and of Postgres.
   */
  private async drain(): Promise<void> {
    while (!this.stopped && (await this.outbox.publishBatch(BATCH_SIZE, (rows) => this.publish(rows))) === BATCH_SIZE) {
      // rows beyond the batch are waiting
    }
  }

  private async publish(rows: OutboxRow[]): Promise<void> {
    // Each emit completes on the broker's confirm: only then is a row marked published.
    await Promise.all(
      rows.map((row) => {
        const headers = messageHeadersFrom(row.headers);
        // The publish continues the trace of the request that wrote the row; the message carries it on.
        return inSpan(
          `${row.routing_key} publish`,
          { kind: SpanKind.PRODUCER, parent: headers, attributes: { 'messaging.message.id': `outbox-${row.id}` } },
          () =>
            lastValueFrom(
              this.client.emit(row.routing_key, {
                body: row.payload,
                type: row.message_type,
                messageId: `outbox-${row.id}`,
                headers: { ...headers, ...traceHeaders() },
              }),
              { defaultValue: undefined },
            ),
        );
      }),
    );
  }
}
