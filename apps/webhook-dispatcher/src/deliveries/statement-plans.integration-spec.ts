import { dataSourceOptions } from '@payhook/persistence';
import type { Pool, PoolClient } from 'pg';
import { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { dropDatabase } from '../../../../test/support/drop-database';
import { createFromTemplate } from '../../../../test/support/template-database';
import { specDatabaseUrl } from '../../../../test/support/spec-database';
import { DELIVERY_STATEMENTS } from './deliveries.repository';
import { LANE_STATEMENTS } from './endpoint-lanes.repository';

const OWED = 5_000;
const ENDPOINT = 'we_plansspec0000000001';
const MERCHANT = 'mch_plansspec000000001';

/**
 * A dispatcher that starts on a young database plans its statements while the tables are empty, and
 * keeps those plans (keyedReadsOnly). When one endpoint then owes thousands of deliveries (it hangs,
 * its work is parked), each statement must still read the deliveries it names, not the endpoint's
 * whole backlog: such a plan once made every park and claim of a batch read all of it, and held back
 * every other merchant's webhooks queued behind them for most of a minute (docs/performance.md).
 */
describe('the dispatcher statements planned on empty tables', () => {
  const url = specDatabaseUrl('plans');
  let db: DataSource;
  let client: PoolClient;

  beforeAll(async () => {
    await createFromTemplate(url);
    db = await new DataSource(
      dataSourceOptions({ url, entities: [], applicationName: 'payhook-plans-spec', keyedReadsOnly: true }),
    ).initialize();
    // Empty and analyzed as such, as a fresh database is after its first vacuum.
    await db.query('VACUUM ANALYZE webhook_deliveries');
    await db.query('VACUUM ANALYZE events');
    client = await ((db.driver as PostgresDriver).master as Pool).connect();
    // Planned now, on the empty tables, as the dispatcher's warm-up plans them.
    for (const statement of [...DELIVERY_STATEMENTS, ...LANE_STATEMENTS]) await client.query(statement);
    await db.query(
      `INSERT INTO merchants (id, name, status, time_zone, fee_bps, settlement_delay_days)
       VALUES ($1, 'Plans', 'live', 'Asia/Seoul', 250, 2)`,
      [MERCHANT],
    );
    await db.query(
      `INSERT INTO webhook_endpoints (id, merchant_id, livemode, url, signing_secret, enabled_events)
       VALUES ($1, $2, false, 'https://shop.example/hangs', 'whsec_spec', '{payment.completed}')`,
      [ENDPOINT, MERCHANT],
    );
    // The endpoint's backlog: every delivery pending and parked, due now.
    await db.query(
      `WITH p AS (
         INSERT INTO payments (id, merchant_id, livemode, order_id, customer_id, amount, currency, status, return_url,
                               pay_suffix, expires_at, created_at, completed_at)
         SELECT 'pay_plans' || g, $1, false, 'plans-' || g, 'c', 15000, 'KRW', 'completed', 'https://shop.example',
                'plans' || g, now() + interval '1 hour', now(), now()
         FROM generate_series(1, $3) g RETURNING id
       ), e AS (
         INSERT INTO events (id, merchant_id, livemode, type, payment_id, body, created_at)
         SELECT 'evt_' || substr(id, 5), $1, false, 'payment.completed', id, '{}', now() FROM p RETURNING id
       )
       INSERT INTO webhook_deliveries (event_id, endpoint_id, merchant_id, livemode, status, lane_due_at, created_at)
       SELECT id, $2, $1, false, 'pending', now() - interval '1 second', now() FROM e`,
      [MERCHANT, ENDPOINT, OWED],
    );
  }, 120_000);

  afterAll(async () => {
    client?.release(true);
    await db?.destroy();
    await dropDatabase(url);
  });

  /** Rows each read of webhook_deliveries returned in all, running the kept plan of `name` with `params`. */
  async function deliveryRowsRead(name: string, params: unknown[]): Promise<number[]> {
    const literals = params.map((param) =>
      client.escapeLiteral(Array.isArray(param) ? `{${param.join(',')}}` : String(param)),
    );
    await client.query('BEGIN');
    try {
      const { rows } = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
        `EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE "${name}"(${literals.join(', ')})`,
      );
      return nodesOf(rows[0]['QUERY PLAN'][0].Plan)
        .filter((node) => node['Relation Name'] === 'webhook_deliveries')
        .map((node) => node['Actual Rows'] * node['Actual Loops']);
    } finally {
      await client.query('ROLLBACK');
    }
  }

  const keys = ['evt_plans1', 'evt_plans2', 'evt_plans3'];

  it('parks a batch by reading its own deliveries only', async () => {
    const reads = await deliveryRowsRead('dispatcher-park-deliveries', [
      keys,
      keys.map(() => ENDPOINT),
      keys.map(() => 1),
      keys.map(() => new Date().toISOString()),
      keys.map(() => '"{}"'),
    ]);
    expect(reads.length).toBeGreaterThan(0);
    for (const rows of reads) expect(rows).toBeLessThanOrEqual(keys.length);
  });

  it("claims a lane's due deliveries by reading only those it claims", async () => {
    const reads = await deliveryRowsRead('lanes-claim', [ENDPOINT, 10, 30_000]);
    expect(reads.length).toBeGreaterThan(0);
    for (const rows of reads) expect(rows).toBeLessThanOrEqual(10);
  });

  it("reads each address's delivery by its key", async () => {
    const reads = await deliveryRowsRead('dispatcher-find-targets', [keys, keys.map(() => ENDPOINT)]);
    expect(reads.length).toBeGreaterThan(0);
    for (const rows of reads) expect(rows).toBeLessThanOrEqual(keys.length);
  });
});

interface PlanNode {
  'Relation Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  Plans?: PlanNode[];
}

const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];
