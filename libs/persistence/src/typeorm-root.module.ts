import type { DynamicModule } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
// Relative: jest's global setup loads this library, and the @payhook/* paths are not mapped there.
import { startupProgress } from '../../config/src/startup-progress';
import { dataSourceOptions, runMigrations, type DataSourceConfig } from './data-source';
import { ensureDatabase } from './ensure-database';

/**
 * TypeORM for an app: the database is created if missing and migrated before anything uses it.
 * Both apps do this, since either may start first on a fresh machine.
 */
export function typeOrmRootModule(config: DataSourceConfig): DynamicModule {
  return TypeOrmModule.forRootAsync({
    useFactory: () => dataSourceOptions(config),
    dataSourceFactory: () => openMigratedDataSource(config),
  });
}

/** What an app does first with its database: create it if missing, connect, migrate. */
export async function openMigratedDataSource(config: DataSourceConfig): Promise<DataSource> {
  startupProgress.set('connecting to PostgreSQL');
  await ensureDatabase(config.url);
  const dataSource = await new DataSource(dataSourceOptions(config)).initialize();
  await runMigrations(dataSource);
  startupProgress.set('setting up the app after its migrations');
  return dataSource;
}
