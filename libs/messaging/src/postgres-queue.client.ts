import type { ReadPacket } from '@nestjs/microservices';
import { sqlRows } from '@payhook/persistence';
import type { DataSource } from 'typeorm';
import { EventsOnlyClient, type WebhookQueueMessage } from './webhook-queue.client';

/** Notified with every enqueue, so an idle PostgresQueueServer claims at once. */
export const POSTGRES_QUEUE_CHANNEL = 'payhook_webhook_queue';

/**
 * The publishing side of the Postgres transport (ADR 0009): `emit(pattern, message)` completes when
 * the row is committed to `webhook_queue`, so the outbox marks a row published only then, as with
 * RabbitMQ's confirms.
 */
export class PostgresQueueClient extends EventsOnlyClient {
  constructor(private readonly db: DataSource) {
    super();
  }

  connect(): Promise<void> {
    this._status$.next('connected');
    return Promise.resolve();
  }

  close(): void {
    // The pool belongs to the app's data source.
  }

  unwrap<T>(): T {
    return this.db as T;
  }

  protected async dispatchEvent<T = unknown>(packet: ReadPacket<WebhookQueueMessage>): Promise<T> {
    await sqlRows(
      this.db,
      `WITH enqueued AS (INSERT INTO webhook_queue (pattern, body, headers) VALUES ($1, $2, $4) RETURNING 1)
       SELECT pg_notify($3, '') FROM enqueued`,
      [String(packet.pattern), packet.data.body, POSTGRES_QUEUE_CHANNEL, packet.data.headers ?? {}],
    );
    return undefined as T;
  }
}
