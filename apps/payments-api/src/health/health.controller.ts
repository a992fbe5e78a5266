import { Controller, Get, Res } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { WebhookQueue } from '@payhook/messaging';
import type { Response } from 'express';
import { DataSource } from 'typeorm';

@Controller()
export class HealthController {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly queue: WebhookQueue,
  ) {}

  /** 200 while Postgres answers; 503 otherwise, so a load balancer takes the instance out. */
  @Get('health')
  async check(@Res({ passthrough: true }) response: Response) {
    const database = await this.databaseState();
    if (database === 'down') response.status(503);
    return { data: { status: database === 'up' ? 'ok' : 'degraded', database } };
  }

  /**
   * Which dependency is down. Requests need only Postgres; while RabbitMQ is down the API keeps
   * answering and the outbox holds the events until the relay can publish them again.
   */
  @Get('ready')
  async ready(@Res({ passthrough: true }) response: Response) {
    const database = await this.databaseState();
    const broker = (await this.queue.isUp()) ? ('up' as const) : ('down' as const);
    const ok = database === 'up' && broker === 'up';
    if (!ok) response.status(503);
    return { data: { status: ok ? 'ok' : 'degraded', database, broker } };
  }

  private databaseState(): Promise<'up' | 'down'> {
    return this.db.query('SELECT 1').then(
      () => 'up' as const,
      () => 'down' as const,
    );
  }
}
