import { DataSource } from 'typeorm';
import { dataSourceOptions, type DataSourceConfig } from '../../libs/persistence/src/data-source';
import { testDatabaseUrl } from './test-env';

/** A data source on the test database, configured as the apps configure theirs; `config` overrides. */
export function specDataSource(applicationName: string, config: Partial<DataSourceConfig> = {}): Promise<DataSource> {
  return new DataSource(
    dataSourceOptions({ url: testDatabaseUrl(), entities: [], applicationName, ...config }),
  ).initialize();
}
