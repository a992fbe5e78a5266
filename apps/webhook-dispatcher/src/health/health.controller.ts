import { Controller, Get, Header, Res } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { WebhookQueue } from '@payhook/messaging';
import type { Response } from 'express';
import { DataSource } from 'typeorm';
import { DeliveryMetrics } from '../deliveries/delivery.metrics';

@Controller()
export class HealthController {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly queue: WebhookQueue,
    private readonly metrics: DeliveryMetrics,
  ) {}

  /** Liveness: the process answers. Restarting it would not fix a broker or database outage. */
  @Get('health')
  health() {
    return { data: { status: 'ok' } };
  }

  /** Readiness: 200 while Postgres and RabbitMQ (unless the queue is in Postgres) answer; 503 otherwise. */
  @Get('ready')
  async ready(@Res({ passthrough: true }) response: Response) {
    const database = await this.db.query('SELECT 1').then(
      () => 'up' as const,
      () => 'down' as const,
    );
    // With the queue in Postgres there is no broker; the database's state is the queue's.
    const broker = this.queue.kind === 'postgres' ? 'not used' : (await this.queue.isUp()) ? 'up' : 'down';
    const ok = database === 'up' && broker !== 'down';
    if (!ok) response.status(503);
    return { data: { status: ok ? 'ok' : 'degraded', database, broker } };
  }

  @Get('metrics')
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  scrape(): Promise<string> {
    return this.metrics.registry.metrics();
  }
}
