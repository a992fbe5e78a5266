// Relative: jest's global setup loads this library, and the @payhook/* paths are not mapped there.
import { parsePostgresUrl } from '../../config/src/postgres-url';

/** The database name in a postgres:// URL (of one host or several), and the same URL pointed at another database. */
export function databaseName(url: string): string {
  const list = parsePostgresUrl(url);
  const oneHostUrl = list.hosts.length > 1 ? list.forHost(list.hosts[0]) : url;
  const name = decodeURIComponent(new URL(oneHostUrl).pathname.replace(/^\//, ''));
  if (!name) throw new Error('DATABASE_URL names no database');
  return name;
}

export function withDatabase(url: string, database: string): string {
  const list = parsePostgresUrl(url);
  if (list.hosts.length > 1) return list.withDatabase(database);
  const parsed = new URL(url);
  parsed.pathname = `/${encodeURIComponent(database)}`;
  return parsed.toString();
}

/** Tests must never touch a database that might hold real data. */
export function assertTestDatabase(url: string): void {
  const name = databaseName(url);
  if (!name.endsWith('_test')) {
    throw new Error(`Refusing to run tests against database "${name}": its name must end in _test`);
  }
}
