import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from 'pg';

/**
 * payhook's local mode (`npm start` on a machine with Node alone) writes its embedded PostgreSQL's
 * URL to `<dataDir>/database-url`: while that server answers, the shop keeps its own database,
 * `example_merchant`, on it. The file outlives the server (it keeps the port for the next start), so
 * a server that does not answer means payhook no longer runs in local mode: undefined, and the shop
 * takes its default database.
 */
export async function localModeDatabaseUrl(
  dataDir: string,
  log: (line: string) => void = console.log,
): Promise<string | undefined> {
  const file = join(dataDir, 'database-url');
  const text = await readFile(file, 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  const url = new URL(text.trim());
  if (!(await answers(url.toString()))) {
    log(`example merchant: payhook's local-mode PostgreSQL (${file}) does not answer; not using it`);
    return undefined;
  }
  url.pathname = '/example_merchant';
  log(`example merchant: database example_merchant on payhook's local-mode PostgreSQL (${file})`);
  return url.toString();
}

async function answers(databaseUrl: string): Promise<boolean> {
  const client = new Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5_000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}
