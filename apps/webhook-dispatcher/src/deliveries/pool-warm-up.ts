import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { warmPool } from '@payhook/persistence';
import { DataSource } from 'typeorm';
import { DELIVERY_STATEMENTS } from './deliveries.repository';
import { LANE_STATEMENTS } from './endpoint-lanes.repository';

/**
 * Connections a dispatcher opens before it takes messages, and keeps open while idle: one for each
 * batched statement (target reads, attempt records, parks) and one for the lanes, which is what a
 * busy instance uses at once. More open on demand, up to the pool's size.
 */
export const WARM_CONNECTIONS = 4;

/**
 * Readies the database side of delivery before the first message: a dispatcher that opened its
 * connections on demand did so in its first busy second, and each new connection held up the batch
 * waiting for it (docs/performance.md, "a fresh dispatcher's first seconds").
 */
@Injectable()
export class DeliveryPoolWarmUp {
  private readonly logger = new Logger(DeliveryPoolWarmUp.name);

  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Never fails: without it the connections open on demand, as they always could. */
  async warm(): Promise<void> {
    try {
      await warmPool(this.db, WARM_CONNECTIONS, [...DELIVERY_STATEMENTS, ...LANE_STATEMENTS]);
    } catch (error) {
      this.logger.warn(`the database connections could not be opened ahead: they open on demand (${String(error)})`);
    }
  }
}
