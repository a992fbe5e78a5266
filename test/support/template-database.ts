import { assertTestDatabase, databaseName, withDatabase } from '../../libs/persistence/src';
import { Client } from 'pg';
import { testTemplateDatabaseUrl } from './test-env';

/**
 * A fully migrated database at `url`, copied from the run's template (global setup migrated it
 * once). Copies may be made side by side: the template takes no connection of its own.
 */
export async function createFromTemplate(url: string): Promise<void> {
  assertTestDatabase(url);
  const admin = new Client({ connectionString: withDatabase(url, 'postgres') });
  admin.on('error', () => undefined);
  await admin.connect();
  try {
    const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
    await admin.query(
      `CREATE DATABASE ${quote(databaseName(url))} TEMPLATE ${quote(databaseName(testTemplateDatabaseUrl()))}`,
    );
  } finally {
    await admin.end();
  }
}
