import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { inTransaction, LastStatement, sqlRows } from '@payhook/persistence';
import { DataSource } from 'typeorm';

export interface OutboxRow {
  id: string;
  routing_key: string;
  message_type: string;
  payload: string;
  headers: Record<string, string> | null;
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
        // A pass for every few commits: parsed once per connection, and planned only for its first passes.
        'outbox-lock-unpublished',
      );
      if (rows.length === 0) return 0;
      await publish(rows);
      // Needs no answer before the COMMIT: the two go out together.
      return new LastStatement(
        rows.length,
        `UPDATE outbox SET published_at = now() WHERE id = ANY($1::bigint[])`,
        [rows.map((row) => row.id)],
        'outbox-mark-published',
      );
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
