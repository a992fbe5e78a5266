import { Client } from 'pg';
import { testDatabaseUrl } from '../../../test/support/test-env';
import { databaseName, withDatabase } from './database-url';
import { ensureDatabase } from './ensure-database';

/**
 * `npm start` runs the API and the dispatcher together, and both create the database when it is
 * missing: the CREATE DATABASE that loses that race answers a unique violation, which must not
 * stop the start.
 */
describe('ensureDatabase when several processes start on a fresh machine together', () => {
  const ROUNDS = 10;
  const STARTS_PER_ROUND = 3;
  const created: string[] = [];
  let admin: Client;

  beforeAll(async () => {
    admin = new Client({ connectionString: withDatabase(testDatabaseUrl(), 'postgres') });
    await admin.connect();
  });
  afterAll(async () => {
    for (const name of created) await admin.query(`DROP DATABASE IF EXISTS "${name}"`);
    await admin.end();
  });

  it('creates the database once and every start goes on', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const url = withDatabase(testDatabaseUrl(), `${databaseName(testDatabaseUrl())}_fresh${round}_test`);
      created.push(databaseName(url));
      const starts = Array.from({ length: STARTS_PER_ROUND }, () => ensureDatabase(url));
      await expect(Promise.all(starts)).resolves.toHaveLength(STARTS_PER_ROUND);
      const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [databaseName(url)]);
      expect(found.rowCount).toBe(1);
    }
  }, 120_000);
});
