import { dataSourceOptions } from '@payhook/persistence';
import type { Pool } from 'pg';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { dropDatabase } from '../../../../test/support/drop-database';
import { createFromTemplate } from '../../../../test/support/template-database';
import { specDatabaseUrl } from '../../../../test/support/spec-database';
import type { WebhookDispatcherEnv } from '../config/webhook-dispatcher.env';
import { DeliveriesRepository, type AttemptRecord } from './deliveries.repository';

/**
 * Attempt records against the real schema: an event's attempts to several endpoints (a merchant with
 * several endpoints) are numbered apart and share one statement; two of one delivery never do.
 */
describe('DeliveriesRepository.recordAttempt', () => {
  const url = specDatabaseUrl('deliveries');
  let db: DataSource;
  let repository: DeliveriesRepository;
  let recordStatements = 0;
  const merchantId = 'mch_deliveriesspec0001';
  const endpoints = ['we_deliveriesspec0001', 'we_deliveriesspec0002', 'we_deliveriesspec0003'];

  beforeAll(async () => {
    await createFromTemplate(url);
    db = await new DataSource(
      dataSourceOptions({ url, entities: [], applicationName: 'payhook-deliveries-spec' }),
    ).initialize();
    const env = { secretsKeyring: {}, disableAfterMs: 86_400_000, noticeAfterMs: 3_600_000 };
    repository = new DeliveriesRepository(db, env as unknown as WebhookDispatcherEnv);
    const pool = (db.driver as PostgresDriver).master as Pool;
    const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
    jest.spyOn(pool, 'query').mockImplementation((...args: unknown[]) => {
      if ((args[0] as { name?: string }).name === 'dispatcher-record-attempts') recordStatements += 1;
      return query(...args);
    });
    await db.query(
      `INSERT INTO merchants (id, name, status, time_zone, fee_bps, settlement_delay_days)
       VALUES ($1, 'Deliveries', 'live', 'Asia/Seoul', 250, 2)`,
      [merchantId],
    );
    for (const id of endpoints) {
      await db.query(
        `INSERT INTO webhook_endpoints (id, merchant_id, livemode, url, signing_secret, enabled_events)
         VALUES ($1, $2, false, $3, 'whsec_spec', '{payment.completed}')`,
        [id, merchantId, `https://shop.example/webhooks/${id}`],
      );
    }
  }, 120_000);

  afterAll(async () => {
    await db?.destroy();
    await dropDatabase(url);
  });

  /** A completed payment's event with a pending delivery to each endpoint. */
  const event = async () => {
    const id = `evt_deliveriesspec${randomBytes(6).toString('hex')}`;
    const paymentId = `pay_${id.slice(4)}`;
    await db.query(
      `INSERT INTO payments (id, merchant_id, livemode, order_id, customer_id, amount, currency, status, return_url,
         pay_suffix, expires_at, created_at, completed_at)
       VALUES ($1, $2, false, $1, 'customer-1', 10000, 'KRW', 'completed', 'https://shop.example/return', $1,
         now() + interval '1 hour', now(), now())`,
      [paymentId, merchantId],
    );
    await db.query(
      `INSERT INTO events (id, merchant_id, livemode, type, payment_id, body, created_at)
       VALUES ($1, $2, false, 'payment.completed', $3, '{}', now())`,
      [id, merchantId, paymentId],
    );
    await db.query(
      `INSERT INTO webhook_deliveries (event_id, endpoint_id, merchant_id, livemode, status, created_at)
       SELECT $1, unnest($2::text[]), $3, false, 'pending', now()`,
      [id, endpoints, merchantId],
    );
    return id;
  };

  const delivered = (eventId: string, endpointId: string, manual = false): AttemptRecord => ({
    eventId,
    endpoint: { id: endpointId, merchantId, livemode: false },
    manual,
    url: `https://shop.example/webhooks/${endpointId}`,
    startedAt: new Date(),
    durationMs: 3,
    responseStatus: 200,
    responseBody: 'ok',
    error: null,
    deliveryStatus: manual ? null : 'succeeded',
    countsForHealth: !manual,
    laneRetry: null,
  });

  it("numbers an event's attempts to several endpoints apart, recorded in one statement", async () => {
    const [busy, fanned] = [await event(), await event()];
    recordStatements = 0;
    // Made in one turn of the event loop, all four go together in one statement.
    const first = repository.recordAttempt(delivered(busy, endpoints[0]));
    const together = endpoints.map((endpointId) => repository.recordAttempt(delivered(fanned, endpointId)));
    await first;
    expect((await Promise.all(together)).map((recorded) => recorded.number).sort()).toEqual([1, 2, 3]);
    expect(recordStatements).toBe(1);
    const [row] = await db.query(`SELECT attempt_count FROM events WHERE id = $1`, [fanned]);
    expect(row.attempt_count).toBe(3);
    const deliveries = await db.query(`SELECT status FROM webhook_deliveries WHERE event_id = $1`, [fanned]);
    expect(deliveries.map((delivery: { status: string }) => delivery.status)).toEqual([
      'succeeded',
      'succeeded',
      'succeeded',
    ]);
    const attempts = await db.query(`SELECT endpoint_id, number FROM webhook_attempts WHERE event_id = $1`, [fanned]);
    expect(attempts.map((attempt: { endpoint_id: string }) => attempt.endpoint_id).sort()).toEqual(endpoints);
  });

  it('records two attempts of one delivery one after the other', async () => {
    const eventId = await event();
    recordStatements = 0;
    const [automatic, manual] = await Promise.all([
      repository.recordAttempt(delivered(eventId, endpoints[1])),
      repository.recordAttempt(delivered(eventId, endpoints[1], true)),
    ]);
    expect([automatic.number, manual.number]).toEqual([1, 2]);
    expect(recordStatements).toBe(2);
  });
});
