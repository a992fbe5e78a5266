import type { DataSource, DataSourceOptions, EntitySchema } from 'typeorm';
import { MIGRATIONS } from './migrations';

export interface DataSourceConfig {
  url: string;
  /** Entity classes of the app that opens the connection. */
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- TypeORM's own type for entity classes
  entities: (Function | EntitySchema)[];
  poolSize?: number;
  applicationName: string;
}

/** One place that decides how the apps talk to Postgres: explicit migrations, never synchronize. */
export function dataSourceOptions(config: DataSourceConfig): DataSourceOptions {
  return {
    type: 'postgres',
    url: config.url,
    entities: config.entities,
    migrations: MIGRATIONS,
    migrationsTableName: 'schema_migrations',
    synchronize: false,
    migrationsRun: false,
    logging: ['error'],
    applicationName: config.applicationName,
    // A Postgres that does not answer fails a request in bounded time (503), instead of holding it.
    extra: { max: config.poolSize ?? 10, connectionTimeoutMillis: 10_000 },
  };
}

/** Arbitrary but fixed: every payhook process that migrates takes this advisory lock first. */
const MIGRATION_LOCK_ID = 0x70617968;

/**
 * Runs pending migrations once, even when several API and dispatcher instances start together:
 * the advisory lock makes the others wait, and they then find nothing left to run.
 */
export async function runMigrations(dataSource: DataSource): Promise<void> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    // Each migration in its own transaction, unless it builds indexes CONCURRENTLY (transaction = false).
    await dataSource.runMigrations({ transaction: 'each' });
  } finally {
    await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => undefined);
    await runner.release();
  }
}
