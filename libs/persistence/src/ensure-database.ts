import { Client } from 'pg';
import { databaseName, withDatabase } from './database-url';

const DUPLICATE_DATABASE = '42P04';

/** Creates the database named in `url` when it does not exist yet (DESIGN.md §2). */
export async function ensureDatabase(url: string): Promise<void> {
  const name = databaseName(url);
  const admin = new Client({ connectionString: withDatabase(url, 'postgres') });
  // A connection lost meanwhile fails the running query; unheard, its 'error' event would end the process.
  admin.on('error', () => undefined);
  await admin.connect();
  try {
    const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) {
      await admin.query(`CREATE DATABASE "${name.replaceAll('"', '""')}"`).catch((error: unknown) => {
        // Another process created it between our check and our create: that is fine.
        if ((error as { code?: string }).code !== DUPLICATE_DATABASE) throw error;
      });
    }
  } finally {
    await admin.end();
  }
}
