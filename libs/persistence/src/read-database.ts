import {
  Global,
  Logger,
  Module,
  type DynamicModule,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import { DataSource, type DataSourceOptions } from 'typeorm';
import { dataSourceOptions, type DataSourceConfig } from './data-source';
import { isDatabaseUnavailable } from './pg-errors';
import { sqlRows } from './sql';

/**
 * Where the read-only list paths run (docs/scaling.md, "Read replicas"): a pool of its own on
 * DATABASE_READ_URL, typically a streaming replica, or the primary's pool when none is set. Only
 * lists that may lag the primary by the replica's delay use it; writes, lookups by id and cursor
 * checks stay on the primary DataSource.
 *
 * The replica's pool opens on first use and again after a failed open, so a replica that is down
 * when the API starts, or goes down later, costs those lists a 503 (the errors are the pool's own,
 * which the error filters already map), never the start or any other route.
 */
export class ReadDatabase implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('ReadDatabase');
  private replica?: Promise<DataSource>;

  constructor(
    private readonly primary: DataSource,
    /** Absent: no DATABASE_READ_URL, and reads use the primary's pool (no second connection). */
    private readonly replicaOptions?: DataSourceOptions,
  ) {}

  /** True when reads go to a database of their own (DATABASE_READ_URL is set). */
  get separate(): boolean {
    return this.replicaOptions !== undefined;
  }

  /** One read-only statement, as `sqlRows` runs it on the primary. */
  async rows<T>(text: string, params: unknown[] = [], name?: string): Promise<T[]> {
    return sqlRows<T>(await this.dataSource(), text, params, name);
  }

  /** Whether the read database answers (readiness). */
  isUp(): Promise<boolean> {
    return this.rows('SELECT 1').then(
      () => true,
      () => false,
    );
  }

  /**
   * Opens the replica's pool at start, so a wrong URL (unknown database, refused login) stops the
   * start like a wrong DATABASE_URL does; an unreachable replica only delays it to the first list.
   */
  async onModuleInit(): Promise<void> {
    if (!this.separate) return;
    try {
      await this.dataSource();
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      this.logger.warn(
        `DATABASE_READ_URL does not answer (${String(error)}): lists answer 503 until it does; everything else is served`,
      );
    }
  }

  async onApplicationShutdown(): Promise<void> {
    const replica = await this.replica?.catch(() => undefined);
    if (replica?.isInitialized) await replica.destroy();
  }

  private dataSource(): Promise<DataSource> {
    if (!this.replicaOptions) return Promise.resolve(this.primary);
    this.replica ??= new DataSource(this.replicaOptions).initialize().catch((error: unknown) => {
      // The next read tries again.
      this.replica = undefined;
      throw error;
    });
    return this.replica;
  }
}

/**
 * Provides ReadDatabase everywhere, beside `typeOrmRootModule(primary)`. With a read URL, the
 * replica's pool has the primary's settings (pool size, timeouts) and the application name
 * `<primary's>-read` unless the URL names its own; that database is never created or migrated (a
 * replica is read-only and follows the primary's schema).
 */
@Global()
@Module({})
export class ReadDatabaseModule {
  static forRoot(primary: DataSourceConfig, readUrl: string | undefined): DynamicModule {
    const replicaOptions = readUrl
      ? dataSourceOptions({
          ...primary,
          url: readUrl,
          entities: [],
          applicationName: `${primary.applicationName}-read`,
        })
      : undefined;
    return {
      module: ReadDatabaseModule,
      providers: [
        {
          provide: ReadDatabase,
          useFactory: (db: DataSource) => new ReadDatabase(db, replicaOptions),
          inject: [getDataSourceToken()],
        },
      ],
      exports: [ReadDatabase],
    };
  }
}
