import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { ReadDatabase } from '@payhook/persistence';
import { DataSource } from 'typeorm';

export type DependencyState = 'up' | 'down';

/** Whether the databases answer, for the health routes (which hold no SQL of their own). */
@Injectable()
export class DatabaseProbe {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly read: ReadDatabase,
  ) {}

  /** The primary, which every request needs. */
  primary(): Promise<DependencyState> {
    return this.db.query('SELECT 1').then(
      () => 'up' as const,
      () => 'down' as const,
    );
  }

  /** The read database of DATABASE_READ_URL; undefined when reads go to the primary. */
  readDatabase(): Promise<DependencyState | undefined> {
    if (!this.read.separate) return Promise.resolve(undefined);
    return this.read.isUp().then((up) => (up ? 'up' : 'down'));
  }
}
