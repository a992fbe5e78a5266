import { Controller, Get, Res } from '@nestjs/common';
import { WebhookQueue } from '@payhook/messaging';
import type { Response } from 'express';
import { DatabaseProbe } from '../../platform/database/database-probe';

@Controller()
export class HealthController {
  constructor(
    private readonly databases: DatabaseProbe,
    private readonly queue: WebhookQueue,
  ) {}

  /** 200 while Postgres answers; 503 otherwise, so a load balancer takes the instance out. */
  @Get('health')
  async check(@Res({ passthrough: true }) response: Response) {
    const database = await this.databases.primary();
    if (database === 'down') response.status(503);
    return { data: { status: database === 'up' ? 'ok' : 'degraded', database } };
  }

  /**
   * Which dependency is down. Requests need only Postgres; while RabbitMQ is down the API keeps
   * answering and the outbox holds the events until the relay can publish them again. With
   * DATABASE_READ_URL, `readDatabase` says whether that answers; /health leaves it out, since a
   * replica outage fails only the lists, alike on every instance. With the webhook queue in
   * Postgres (WEBHOOK_QUEUE=postgres, local mode) there is no broker: `broker` says `not used`.
   */
  @Get('ready')
  async ready(@Res({ passthrough: true }) response: Response) {
    const [database, broker, readDatabase] = await Promise.all([
      this.databases.primary(),
      brokerState(this.queue),
      this.databases.readDatabase(),
    ]);
    const ok = database === 'up' && broker !== 'down' && readDatabase !== 'down';
    if (!ok) response.status(503);
    return { data: { status: ok ? 'ok' : 'degraded', database, broker, ...(readDatabase ? { readDatabase } : {}) } };
  }
}

const upOrDown = (up: boolean) => (up ? ('up' as const) : ('down' as const));

/** RabbitMQ's state, or `not used` when the queue is a table of the database (its state is `database`). */
function brokerState(queue: WebhookQueue): Promise<'up' | 'down' | 'not used'> {
  return queue.kind === 'postgres' ? Promise.resolve('not used' as const) : queue.isUp().then(upOrDown);
}
