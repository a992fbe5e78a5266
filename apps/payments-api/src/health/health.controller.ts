import { Controller, Get, Res } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Response } from 'express';
import { DataSource } from 'typeorm';

@Controller('health')
export class HealthController {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** 200 while Postgres answers; 503 otherwise, so a load balancer takes the instance out. */
  @Get()
  async check(@Res({ passthrough: true }) response: Response) {
    const up = await this.db.query('SELECT 1').then(
      () => true,
      () => false,
    );
    if (!up) response.status(503);
    return { data: { status: up ? 'ok' : 'degraded', database: up ? 'up' : 'down' } };
  }
}
