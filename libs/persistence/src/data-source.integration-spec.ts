import type { Pool } from 'pg';
import type { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { specDataSource } from '../../../test/support/spec-data-source';

const GROWN_TO = 20_000;

/**
 * A named statement is planned once per connection and its plan kept. Made while its table was small
 * (a young database), the plan must still probe the key once the table has grown: the dispatcher's
 * batches run on such plans (keyedReadsOnly).
 */
describe('a pool with keyedReadsOnly', () => {
  let keyed: DataSource;
  let plain: DataSource;

  beforeAll(async () => {
    keyed = await specDataSource('payhook-keyed-spec', { keyedReadsOnly: true });
    plain = await specDataSource('payhook-keyed-spec-plain');
  });
  afterAll(async () => {
    await keyed?.destroy();
    await plain?.destroy();
  });

  /**
   * A batch lookup as the dispatcher's (rows joined with an array of keys), run first on a new empty
   * table by a connection of `db`: the plan that connection keeps for it, shown after the table grew.
   */
  async function planKeptAfterGrowth(db: DataSource, table: string, settings = '') {
    const client = await ((db.driver as PostgresDriver).master as Pool).connect();
    const lookup = {
      name: `${table}-lookup`,
      text: `SELECT t.n FROM unnest($1::text[]) AS wanted (id) JOIN ${table} t ON t.id = wanted.id`,
    };
    try {
      if (settings) await client.query(settings);
      await client.query(`CREATE TABLE ${table} (id text PRIMARY KEY, n int NOT NULL)`);
      await client.query({ ...lookup, values: [['id-1']] });
      await client.query(`INSERT INTO ${table} SELECT 'id-' || g, g FROM generate_series(1, ${GROWN_TO}) g`);
      const { rows } = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN EXECUTE "${lookup.name}"('{id-1,id-2}')`);
      const [counts] = (
        await client.query<{ custom_plans: string }>(
          `SELECT custom_plans FROM pg_prepared_statements WHERE name = $1`,
          [lookup.name],
        )
      ).rows;
      return { plan: rows.map((row) => row['QUERY PLAN']).join('\n'), customPlans: Number(counts.custom_plans) };
    } finally {
      await client.query(`DROP TABLE IF EXISTS ${table}`);
      // Its prepared statement and settings go with it.
      client.release(true);
    }
  }

  it('plans a named statement once, probing the key however small the table was then', async () => {
    const { plan, customPlans } = await planKeptAfterGrowth(keyed, 'data_source_spec_keyed');
    expect(plan).toMatch(/Index/);
    expect(plan).not.toMatch(/Seq Scan/);
    expect(customPlans).toBe(0);
  });

  it('is what keeps such a plan from scanning the grown table (the same plan made without it)', async () => {
    const { plan } = await planKeptAfterGrowth(
      plain,
      'data_source_spec_plain',
      'SET plan_cache_mode = force_generic_plan',
    );
    expect(plan).toMatch(/Seq Scan on data_source_spec_plain/);
  });
});
