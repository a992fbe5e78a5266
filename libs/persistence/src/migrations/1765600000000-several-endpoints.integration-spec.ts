import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { dropDatabase } from '../../../../test/support/drop-database';
import { specDatabaseUrl } from '../../../../test/support/spec-database';
import { dataSourceOptions } from '../data-source';
import { ensureDatabase } from '../ensure-database';
import { SeveralEndpoints1765600000000 } from './1765600000000-several-endpoints';
import { MIGRATIONS } from './index';

const [SHOP, BARE] = ['mch_severalendpointsmig0001', 'mch_severalendpointsmig0002'];
const PAYMENT = 'pay_severalendpointsmig0001';
const BARE_PAYMENT = 'pay_severalendpointsmig0002';
const event = (n: number) => `evt_severalendpointsmig000${n}`;
const SEALED = 'v1:0123abcd:sealed-current';
const SEALED_PREVIOUS = 'v1:0123abcd:sealed-previous';
const NO_ENDPOINT = 'No webhook endpoint is set for this mode; set one and redeliver the event.';

async function migrate(url: string, migrations: typeof MIGRATIONS): Promise<void> {
  const options = dataSourceOptions({ url, entities: [], applicationName: 'payhook-several-endpoints-spec' });
  const dataSource = await new DataSource({ ...options, migrations }).initialize();
  try {
    await dataSource.runMigrations({ transaction: 'each' });
  } finally {
    await dataSource.destroy();
  }
}

/**
 * SeveralEndpoints1765600000000 on a database with one endpoint per mode as before: the endpoint keeps
 * its secrets and health under a `we_` id, and what each event owed it (delivered, failed with its
 * reason, parked in its lane) becomes that event's delivery to it, with its attempts.
 */
describe('the several-endpoints migration', () => {
  const url = specDatabaseUrl('endpoints');
  let db: Client;
  const laneDue = new Date('2026-11-25T09:00:00.000Z');
  const failingSince = new Date('2026-11-25T08:00:00.000Z');

  beforeAll(async () => {
    await ensureDatabase(url);
    await migrate(url, MIGRATIONS.slice(0, MIGRATIONS.indexOf(SeveralEndpoints1765600000000)));
    db = new Client({ connectionString: url });
    await db.connect();
    for (const merchant of [SHOP, BARE]) {
      await db.query(
        `INSERT INTO merchants (id, name, status, time_zone, fee_bps, settlement_delay_days)
         VALUES ($1, 'Several endpoints', 'live', 'Asia/Seoul', 250, 2)`,
        [merchant],
      );
    }
    await db.query(
      `INSERT INTO webhook_endpoints (merchant_id, livemode, url, signing_secret, previous_signing_secret,
         previous_secret_expires_at, enabled_events, status, failing_since, consecutive_failures, last_error)
       VALUES ($1, false, 'https://shop.example/hooks', $2, $3, now() + interval '1 hour',
               '{payment.completed,payment.failed}', 'enabled', $4, 4, 'HTTP 500')`,
      [SHOP, SEALED, SEALED_PREVIOUS, failingSince],
    );
    for (const [payment, merchant, suffix] of [
      [PAYMENT, SHOP, 'a'],
      [BARE_PAYMENT, BARE, 'b'],
    ]) {
      await db.query(
        `INSERT INTO payments (id, merchant_id, livemode, order_id, customer_id, amount, currency, status, return_url,
           pay_suffix, expires_at, created_at, completed_at)
         VALUES ($1, $2, false, 'order-1', 'customer-1', 10000, 'KRW', 'completed', 'https://shop.example/return',
           $3, now() + interval '1 hour', now(), now())`,
        [payment, merchant, `suffix-several-${suffix}`],
      );
    }
    const events: [string, string, string, string, string, string | null, Date | null][] = [
      [event(1), SHOP, PAYMENT, 'payment.completed', 'succeeded', null, null],
      [event(2), SHOP, PAYMENT, 'payment.failed', 'failed', 'endpoint_disabled', null],
      [event(3), SHOP, PAYMENT, 'payment.canceled', 'pending', null, laneDue],
      [event(4), SHOP, PAYMENT, 'payment.expired', 'skipped', null, null],
      [event(5), BARE, BARE_PAYMENT, 'payment.completed', 'failed', NO_ENDPOINT, null],
    ];
    for (const [id, merchant, payment, type, status, reason, due] of events) {
      await db.query(
        `INSERT INTO events (id, merchant_id, livemode, type, payment_id, body, created_at, delivery_status,
           undelivered_reason, attempt_count, lane_due_at, lane_retry_step, lane_headers, recovery_id)
         VALUES ($1, $2, false, $3, $4, '{}', now(), $5, $6, $7, $8, $9, $10, $11)`,
        [
          id,
          merchant,
          type,
          payment,
          status,
          reason,
          status === 'skipped' ? 0 : 1,
          due,
          due ? 2 : null,
          due ? JSON.stringify({ 'x-request-id': 'req-1' }) : null,
          status === 'pending' ? 'rcv_severalendpointsmig0001' : null,
        ],
      );
    }
    await db.query(
      `INSERT INTO webhook_attempts (id, event_id, number, url, started_at, duration_ms, response_status)
       VALUES ('att_severalendpointsmig0001', $1, 1, 'https://shop.example/hooks', now(), 12, 200),
              ('att_severalendpointsmig0002', $2, 1, 'https://shop.example/hooks', now(), 15, 500)`,
      [event(1), event(2)],
    );
    await migrate(url, MIGRATIONS);
  }, 120_000);

  afterAll(async () => {
    await db?.end();
    await dropDatabase(url);
  });

  it('keeps the endpoint, its secrets and its health under a we_ id', async () => {
    const { rows } = await db.query(
      `SELECT id, url, signing_secret, previous_signing_secret, enabled_events, status, failing_since,
              consecutive_failures, last_error, description FROM webhook_endpoints`,
    );
    expect(rows).toEqual([
      {
        id: expect.stringMatching(/^we_[0-9A-Za-z]{24}$/),
        url: 'https://shop.example/hooks',
        signing_secret: SEALED,
        previous_signing_secret: SEALED_PREVIOUS,
        enabled_events: ['payment.completed', 'payment.failed'],
        status: 'enabled',
        failing_since: failingSince,
        consecutive_failures: 4,
        last_error: 'HTTP 500',
        description: null,
      },
    ]);
  });

  it("makes what each event owed the endpoint that event's delivery to it, with its attempts", async () => {
    const [{ id: endpointId }] = (await db.query(`SELECT id FROM webhook_endpoints`)).rows as { id: string }[];
    const { rows } = await db.query(
      `SELECT event_id, endpoint_id, merchant_id, status, undelivered_reason, lane_due_at, lane_retry_step,
              lane_headers, recovery_id
       FROM webhook_deliveries ORDER BY event_id`,
    );
    const delivery = (eventId: string, status: string, more: object = {}) => ({
      event_id: eventId,
      endpoint_id: endpointId,
      merchant_id: SHOP,
      status,
      undelivered_reason: null,
      lane_due_at: null,
      lane_retry_step: null,
      lane_headers: null,
      recovery_id: null,
      ...more,
    });
    // The skipped event and the one whose mode had no endpoint owe nothing: no delivery.
    expect(rows).toEqual([
      delivery(event(1), 'succeeded'),
      delivery(event(2), 'failed', { undelivered_reason: 'endpoint_disabled' }),
      delivery(event(3), 'pending', {
        lane_due_at: laneDue,
        lane_retry_step: 2,
        lane_headers: { 'x-request-id': 'req-1' },
        recovery_id: 'rcv_severalendpointsmig0001',
      }),
    ]);
    const attempts = await db.query(`SELECT id, endpoint_id FROM webhook_attempts ORDER BY id`);
    expect(attempts.rows).toEqual([
      { id: 'att_severalendpointsmig0001', endpoint_id: endpointId },
      { id: 'att_severalendpointsmig0002', endpoint_id: endpointId },
    ]);
  });

  it('keeps the state of an event without deliveries on the event', async () => {
    const { rows } = await db.query(
      `SELECT id, delivery_status, undelivered_reason FROM events WHERE id = ANY($1) ORDER BY id`,
      [[event(4), event(5)]],
    );
    expect(rows).toEqual([
      { id: event(4), delivery_status: 'skipped', undelivered_reason: null },
      { id: event(5), delivery_status: 'failed', undelivered_reason: NO_ENDPOINT },
    ]);
  });
});
