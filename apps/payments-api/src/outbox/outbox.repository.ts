import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { WEBHOOK_DELIVERY_REQUESTED_V1, type WebhookDeliveryRequestedV1 } from '@payhook/contracts';
import { WEBHOOK_DELIVER_ROUTING_KEY } from '@payhook/messaging';
import { outgoingMessageHeaders } from '@payhook/observability';
import { inTransaction, sqlRows, type Sql } from '@payhook/persistence';
import { DataSource } from 'typeorm';

export interface OutboxRow {
  id: string;
  routing_key: string;
  message_type: string;
  payload: string;
  headers: Record<string, string> | null;
}

/** Builds the outbox row for a delivery request; commit it with the change it announces. */
export function enqueueDelivery(
  sql: Sql,
  request: Omit<WebhookDeliveryRequestedV1, 'type' | 'requestedAt'>,
): Promise<void> {
  return enqueueDeliveries(sql, [request]);
}

/**
 * The outbox rows of several delivery requests in one statement (a sweeper batch of events), each with
 * the correlation of the request that caused them (its request id and trace context).
 */
export async function enqueueDeliveries(
  sql: Sql,
  requests: Omit<WebhookDeliveryRequestedV1, 'type' | 'requestedAt'>[],
): Promise<void> {
  if (requests.length === 0) return;
  const requestedAt = new Date().toISOString();
  const payloads = requests.map((request) =>
    JSON.stringify({
      type: WEBHOOK_DELIVERY_REQUESTED_V1,
      ...request,
      requestedAt,
    } satisfies WebhookDeliveryRequestedV1),
  );
  await sql(`INSERT INTO outbox (routing_key, message_type, payload, headers) SELECT $1, $2, unnest($3::text[]), $4`, [
    WEBHOOK_DELIVER_ROUTING_KEY,
    WEBHOOK_DELIVERY_REQUESTED_V1,
    payloads,
    outgoingMessageHeaders(),
  ]);
}

@Injectable()
export class OutboxRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Locks a batch of unpublished rows (other relays skip them), hands them to `publish`, and marks
   * them published only when it resolves, all in one transaction: a crash or a failed confirm
   * leaves them unpublished for the next pass.
   */
  async publishBatch(limit: number, publish: (rows: OutboxRow[]) => Promise<void>): Promise<number> {
    return inTransaction(this.db, async (sql) => {
      const rows = await sql<OutboxRow>(
        `SELECT id, routing_key, message_type, payload, headers FROM outbox
         WHERE published_at IS NULL ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED`,
        [limit],
      );
      if (rows.length === 0) return 0;
      await publish(rows);
      await sql(`UPDATE outbox SET published_at = now() WHERE id = ANY($1::bigint[])`, [rows.map((row) => row.id)]);
      return rows.length;
    });
  }

  /** Published rows are kept for inspection, then deleted oldest first in batches (outbox_published_idx). */
  async purgePublished(olderThanMs: number, batchSize: number): Promise<number> {
    const rows = await sqlRows(
      this.db,
      `DELETE FROM outbox WHERE id = ANY (ARRAY(
         SELECT id FROM outbox WHERE published_at < now() - make_interval(secs => $1 / 1000.0)
         ORDER BY published_at LIMIT $2))
       RETURNING 1`,
      [olderThanMs, batchSize],
    );
    return rows.length;
  }
}
