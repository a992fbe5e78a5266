import { Client } from 'pg';
import { databaseName, withDatabase } from '../../libs/persistence/src';

/** Drops a database a test run or spec made for itself, closing its connections: every run ends clean. */
export async function dropDatabase(url: string): Promise<void> {
  const admin = new Client({ connectionString: withDatabase(url, 'postgres') });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${databaseName(url)}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}
