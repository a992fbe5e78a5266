import { Inject, Injectable, Module } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { PeriodicTask, inBatches, sqlRows } from '@payhook/persistence';
import { DataSource } from 'typeorm';
import { WebhookDispatcherEnv } from '../config/webhook-dispatcher.env';

const BATCH_SIZE = 1_000;
const INTERVAL_MS = 10 * 60_000;

/**
 * Deletes delivery attempts older than WEBHOOK_ATTEMPT_RETENTION, a short batch at a time, so the
 * table holds a month of attempts however long payhook runs. Events themselves are never purged.
 * Here because the dispatcher owns webhook_attempts (it writes every automatic and manual attempt);
 * with several dispatchers each purges, and a batch another already deleted is simply smaller.
 */
@Injectable()
export class WebhookAttemptsPurger extends PeriodicTask {
  protected readonly intervalMs = INTERVAL_MS;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(WebhookDispatcherEnv) private readonly env: WebhookDispatcherEnv,
  ) {
    super();
  }

  protected async tick(): Promise<void> {
    await inBatches(BATCH_SIZE, (size) => this.purgeBatch(this.env.attemptRetentionMs, size));
  }

  /** Deletes up to `batchSize` attempts older than `olderThanMs`, oldest first (webhook_attempts_started_idx). */
  private async purgeBatch(olderThanMs: number, batchSize: number): Promise<number> {
    const rows = await sqlRows(
      this.db,
      `DELETE FROM webhook_attempts WHERE id = ANY (ARRAY(
         SELECT id FROM webhook_attempts WHERE started_at < now() - make_interval(secs => $1 / 1000.0)
         ORDER BY started_at LIMIT $2))
       RETURNING 1`,
      [olderThanMs, batchSize],
    );
    return rows.length;
  }
}

@Module({ providers: [WebhookAttemptsPurger] })
export class WebhookAttemptsModule {}
