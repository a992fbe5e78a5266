import type { DynamicModule } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { dataSourceOptions, runMigrations, type DataSourceConfig } from './data-source';
import { ensureDatabase } from './ensure-database';

/**
 * TypeORM for an app: the database is created if missing and migrated before anything uses it.
 * Both apps do this, since either may start first on a fresh machine.
 */
export function typeOrmRootModule(config: DataSourceConfig): DynamicModule {
  return TypeOrmModule.forRootAsync({
    useFactory: () => dataSourceOptions(config),
    dataSourceFactory: async (options) => {
      await ensureDatabase(config.url);
      const dataSource = await new DataSource(options!).initialize();
      await runMigrations(dataSource);
      return dataSource;
    },
  });
}
