import { databaseClient } from './database-client';
import { databaseName, withDatabase } from './database-url';

const DUPLICATE_DATABASE = '42P04';
/** What a CREATE DATABASE that loses a race with another one gets: pg_database's own unique index. */
const UNIQUE_VIOLATION = '23505';

/** Creates the database named in `url` when it does not exist yet. */
export async function ensureDatabase(url: string): Promise<void> {
  const name = databaseName(url);
  const admin = databaseClient(withDatabase(url, 'postgres'));
  // A connection lost meanwhile fails the running query; unheard, its 'error' event would end the process.
  admin.on('error', () => undefined);
  await admin.connect();
  try {
    const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) {
      await admin.query(`CREATE DATABASE "${name.replaceAll('"', '""')}"`).catch((error: unknown) => {
        // Another process created it between our check and our create (the API and a dispatcher
        // starting together on a fresh machine): that is fine.
        const code = (error as { code?: string }).code;
        if (code !== DUPLICATE_DATABASE && code !== UNIQUE_VIOLATION) throw error;
      });
    }
  } finally {
    await admin.end();
  }
}
