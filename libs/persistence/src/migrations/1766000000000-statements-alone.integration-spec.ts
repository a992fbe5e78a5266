import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { dropDatabase } from '../../../../test/support/drop-database';
import { specDatabaseUrl } from '../../../../test/support/spec-database';
import { dataSourceOptions } from '../data-source';
import { ensureDatabase } from '../ensure-database';
import { STATEMENT_ABORTED } from '../pg-errors';
import { MIGRATIONS } from './index';

const insertOutboxRows = (rows: number) =>
  `INSERT INTO outbox (routing_key, message_type, payload)
   SELECT 'webhook.deliver', 'spec', '{}' FROM generate_series(1, ${rows})`;

/**
 * StatementsAlone1766000000000: what a statement committed by itself needs (ADR 0015). It can undo
 * its own writes (abort_statement), and its outbox INSERT wakes the relays only when it wrote rows.
 */
describe('the statements-alone migration', () => {
  const url = specDatabaseUrl('alone');
  let db: Client;

  beforeAll(async () => {
    await ensureDatabase(url);
    const options = dataSourceOptions({ url, entities: [], applicationName: 'payhook-statements-alone-spec' });
    const dataSource = await new DataSource({ ...options, migrations: MIGRATIONS }).initialize();
    try {
      await dataSource.runMigrations({ transaction: 'each' });
    } finally {
      await dataSource.destroy();
    }
    db = new Client({ connectionString: url });
    await db.connect();
  });
  afterAll(async () => {
    await db?.end();
    await dropDatabase(url);
  });

  it('undoes every write of a statement that calls abort_statement, with SQLSTATE PH001', async () => {
    const before = (await db.query<{ rows: number }>('SELECT count(*)::int AS rows FROM outbox')).rows[0].rows;
    await expect(
      db.query(`WITH written AS (${insertOutboxRows(3)} RETURNING id)
                SELECT abort_statement('spec: the key was taken') FROM written`),
    ).rejects.toMatchObject({ code: STATEMENT_ABORTED, message: 'spec: the key was taken' });
    const after = (await db.query<{ rows: number }>('SELECT count(*)::int AS rows FROM outbox')).rows[0].rows;
    expect(after).toBe(before);
  });

  it('notifies the relays of an outbox INSERT only when it wrote rows', async () => {
    const notifications: string[] = [];
    db.on('notification', (message) => notifications.push(message.channel));
    await db.query('LISTEN payhook_outbox');
    // A session's own notifications arrive as its transaction commits, before the statement's answer.
    await db.query(insertOutboxRows(0));
    expect(notifications).toEqual([]);
    await db.query(insertOutboxRows(2));
    expect(notifications).toEqual(['payhook_outbox']);
    await db.query('UNLISTEN payhook_outbox');
  });
});
