import { Logger, type LoggerService } from '@nestjs/common';
import { BaseRpcContext, Server, type CustomTransportStrategy } from '@nestjs/microservices';
import { messageHeadersFrom } from '@payhook/observability';
import { NotificationListener, sqlRows } from '@payhook/persistence';
import type { DataSource } from 'typeorm';
import { POSTGRES_QUEUE_CHANNEL } from './postgres-queue.client';
import {
  decide,
  MAX_BACKOFFS,
  RunningHandlers,
  rememberedHandlers,
  type QueueDecision,
  type QueueMessageContext,
  type QueueServerOptions,
} from './queue-handling';

/** One claimed row of `webhook_queue`. */
export interface PostgresQueueMessage {
  id: string;
  pattern: string;
  body: string;
  backoffs: number;
  headers: Record<string, string> | null;
}

/** `@Ctx()` of a handler on the Postgres transport: the claimed row. */
export class PostgresQueueContext extends BaseRpcContext<[PostgresQueueMessage]> implements QueueMessageContext {
  getMessage(): PostgresQueueMessage {
    return this.args[0];
  }

  getHeaders(): Record<string, string> {
    return messageHeadersFrom(this.args[0].headers);
  }
}

export interface PostgresQueueServerOptions extends QueueServerOptions {
  db: DataSource;
  /** For the LISTEN connection that wakes the server when a message is enqueued. */
  databaseUrl: string;
  /**
   * How long a claimed message stays invisible to other consumers: longer than any handler runs.
   * A process that dies holding it frees it when the lease ends (at-least-once).
   */
  leaseMs: number;
  /** The wait before a message that backed off is tried again. */
  backOffMs: number;
  /** The longest idle wait between claims (default 1 s); a notification or a due retry ends it sooner. */
  idlePollMs?: number;
}

const IDLE_POLL_MS = 1_000;

/**
 * The webhook queue as a Nest transport on Postgres (ADR 0009), for local mode: the same handlers
 * and decisions as the RabbitMQ transport, with the message kept in `webhook_queue` until its
 * decision is carried out. A claim leases up to `prefetch` due rows (FOR UPDATE SKIP LOCKED, so
 * several dispatchers compete safely); ack deletes the row, retry and back-off move its visibility
 * into the future (so a retry wait survives any restart), dead-letter keeps it with a reason.
 */
export class PostgresQueueServer extends Server implements CustomTransportStrategy {
  protected override readonly logger: LoggerService = new Logger(PostgresQueueServer.name);
  private readonly running = new RunningHandlers(this.logger);
  private readonly handlerFor = rememberedHandlers((pattern) => this.getHandlerByPattern(pattern));
  private readonly listener: NotificationListener;
  private stopping = false;
  private loop?: Promise<void>;
  private wakeUp?: () => void;
  /** A wake that came while the loop was busy: the next sleep is skipped, so no wake is lost. */
  private woken = false;
  private readonly idlePollMs: number;

  constructor(private readonly options: PostgresQueueServerOptions) {
    super();
    this.idlePollMs = options.idlePollMs ?? IDLE_POLL_MS;
    this.listener = new NotificationListener({
      url: options.databaseUrl,
      channel: POSTGRES_QUEUE_CHANNEL,
      applicationName: 'payhook-webhook-queue-listener',
      onNotify: () => this.wake(),
      retryMs: IDLE_POLL_MS,
    });
  }

  listen(callback: (...optionalParams: unknown[]) => unknown): void {
    // Ready once notifications are heard: a message enqueued after that is claimed at once.
    void this.listener.start().then(() => {
      this.loop = this.claimLoop();
      callback();
    });
  }

  /** Stops claiming, lets running handlers finish and carry out their decisions, then lets go. */
  async close(): Promise<void> {
    this.stopping = true;
    this.wake();
    await this.loop;
    await this.running.drain(this.options.drainTimeoutMs);
    await this.listener.stop();
  }

  on(): never {
    throw new Error('PostgresQueueServer has no events to listen to');
  }

  unwrap<T>(): T {
    return this.options.db as T;
  }

  private wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  private async claimLoop(): Promise<void> {
    while (!this.stopping) {
      this.woken = false;
      let idleMs = this.idlePollMs;
      try {
        const free = this.options.prefetch - this.running.size;
        const claimed = free > 0 ? await this.claim(free) : [];
        for (const message of claimed) this.running.track(this.handle(message));
        // A full claim may have left more due work: go again as soon as a handler frees a place.
        if (claimed.length > 0 && claimed.length === free) continue;
        if (free > 0) idleMs = await this.msUntilNextDue();
      } catch (error) {
        // The database is away: the messages wait in it; try again after the idle wait.
        this.logger.warn(`claiming webhook queue messages failed, will retry: ${String(error)}`);
      }
      await this.sleep(idleMs);
    }
  }

  private claim(limit: number): Promise<PostgresQueueMessage[]> {
    return sqlRows<PostgresQueueMessage>(
      this.options.db,
      `UPDATE webhook_queue SET visible_at = now() + make_interval(secs => $2 / 1000.0)
       WHERE id = ANY (ARRAY(
         SELECT id FROM webhook_queue WHERE dead_at IS NULL AND visible_at <= now()
         ORDER BY visible_at LIMIT $1 FOR UPDATE SKIP LOCKED))
       RETURNING id, pattern, body, backoffs, headers`,
      [limit, this.options.leaseMs],
    );
  }

  /** Until the next message becomes visible (a retry wait ending), at most the idle poll. */
  private async msUntilNextDue(): Promise<number> {
    const [next] = await sqlRows<{ ms: number | null }>(
      this.options.db,
      `SELECT ceil(extract(epoch FROM min(visible_at) - now()) * 1000)::int AS ms
       FROM webhook_queue WHERE dead_at IS NULL`,
    );
    return Math.min(this.idlePollMs, Math.max(0, next?.ms ?? this.idlePollMs));
  }

  private sleep(ms: number): Promise<void> {
    if (this.stopping || this.woken || ms <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wakeUp = done;
    });
  }

  private async handle(message: PostgresQueueMessage): Promise<void> {
    const decision = await decide(
      this.handlerFor(message.pattern),
      message.pattern,
      message.body,
      new PostgresQueueContext([message]),
    );
    try {
      await this.carryOut(message, decision);
    } catch (error) {
      // The row keeps its lease and comes back when it ends, as it was.
      this.logger.warn(`could not carry out ${decision.kind}, the message comes back later: ${String(error)}`);
    } finally {
      this.wake();
    }
  }

  private async carryOut(message: PostgresQueueMessage, decision: QueueDecision): Promise<void> {
    switch (decision.kind) {
      case 'ack':
        await this.update(`DELETE FROM webhook_queue WHERE id = $1`, [message.id]);
        return;
      case 'retry':
        await this.update(
          `UPDATE webhook_queue SET body = $2, backoffs = 0,
             visible_at = now() + make_interval(secs => $3 / 1000.0) WHERE id = $1`,
          [message.id, JSON.stringify(decision.content), decision.delayMs],
        );
        return;
      case 'dead-letter':
        return this.deadLetter(message, decision.reason);
      case 'back-off': {
        if (decision.counts && message.backoffs >= MAX_BACKOFFS) {
          return this.deadLetter(message, `failed ${message.backoffs} times: ${decision.reason}`);
        }
        this.logger.warn(`delivery failed before it was recorded, will retry: ${decision.reason}`);
        await this.update(
          `UPDATE webhook_queue SET backoffs = backoffs + $2,
             visible_at = now() + make_interval(secs => $3 / 1000.0) WHERE id = $1`,
          [message.id, decision.counts ? 1 : 0, this.options.backOffMs],
        );
        return;
      }
    }
  }

  private async deadLetter(message: PostgresQueueMessage, reason: string): Promise<void> {
    this.logger.error(`poison message ${message.id} kept in webhook_queue as dead: ${reason}`);
    await this.update(`UPDATE webhook_queue SET dead_at = now(), dead_reason = $2 WHERE id = $1`, [message.id, reason]);
    this.options.onDeadLetter?.(reason);
  }

  private async update(text: string, params: unknown[]): Promise<void> {
    await sqlRows(this.options.db, text, params);
  }
}
