import { WEBHOOK_DELIVERY_REQUESTED_V2, newId, parseWebhookDeliveryRequest } from '@payhook/contracts';
import { WEBHOOK_DELIVER_ROUTING_KEY } from '@payhook/messaging';
import { REQUEST_ID_HEADER, withLogFields } from '@payhook/observability';
import { KEYED_PLANS_FOR_TRANSACTION, type Sql } from '@payhook/persistence';
import { Client } from 'pg';
import { testDatabaseUrl } from '../../../../../test/support/test-env';
import { EventWriter, type NewEvent } from './event-writer';
import { deliveryMessage } from './outbox-writer';

/**
 * EventWriter.record writes an event, its deliveries and their outbox rows in one statement, the
 * outbox payload built in SQL: it must be the message deliveryMessage builds, which the dispatcher
 * parses. Each case runs in a transaction rolled back at the end.
 */
describe('EventWriter.record', () => {
  const db = new Client({ connectionString: testDatabaseUrl() });
  const sql: Sql = async (text, params, name) =>
    (await db.query(name ? { name, text, values: params } : { text, values: params })).rows;
  const merchantId = newId('merchant');
  const paymentId = newId('payment');

  beforeAll(() => db.connect());
  afterAll(() => db.end());
  beforeEach(async () => {
    await db.query('BEGIN');
    await db.query(
      `INSERT INTO merchants (id, name, status, time_zone, fee_bps, settlement_delay_days)
       VALUES ($1, 'Event writer', 'live', 'Asia/Seoul', 250, 2)`,
      [merchantId],
    );
    await db.query(
      `INSERT INTO payments (id, merchant_id, livemode, order_id, customer_id, amount, currency, status, return_url,
         pay_suffix, expires_at, created_at, completed_at)
       VALUES ($1, $2, false, 'order-1', 'customer-1', 15000, 'KRW', 'completed', 'https://shop.example/return',
         $1, now() + interval '1 hour', now(), now())`,
      [paymentId, merchantId],
    );
  });
  afterEach(() => db.query('ROLLBACK'));

  const endpoint = async (enabledEvents: string[]) => {
    const id = newId('webhookEndpoint');
    await db.query(
      `INSERT INTO webhook_endpoints (id, merchant_id, livemode, url, signing_secret, enabled_events)
       VALUES ($1, $2, false, 'https://shop.example/hooks', 'sealed', $3)`,
      [id, merchantId, enabledEvents],
    );
    return id;
  };

  const completedEvent = (): NewEvent => {
    const id = newId('event');
    const createdAt = new Date();
    return {
      id,
      merchantId,
      livemode: false,
      type: 'payment.completed',
      paymentId,
      refundId: null,
      cashReceiptId: null,
      body: JSON.stringify({ id, type: 'payment.completed', createdAt: createdAt.toISOString(), data: {} }),
      createdAt,
    };
  };

  it('writes one outbox row per endpoint that takes the event, each the message deliveryMessage builds', async () => {
    const taking = [await endpoint(['payment.completed']), await endpoint(['payment.completed', 'refund.succeeded'])];
    await endpoint(['refund.succeeded']);
    const event = completedEvent();
    const before = new Date();
    await withLogFields({ requestId: 'req_eventwriterspec' }, () => new EventWriter(sql).record([event]));

    const { rows } = await db.query<{ routing_key: string; message_type: string; payload: string; headers: unknown }>(
      `SELECT routing_key, message_type, payload, headers FROM outbox WHERE payload::jsonb ->> 'eventId' = $1`,
      [event.id],
    );
    expect(rows).toHaveLength(2);
    const messages = rows.map((row) => JSON.parse(row.payload) as { endpointId: string; requestedAt: string });
    expect(messages.map((message) => message.endpointId).sort()).toEqual([...taking].sort());
    for (const [n, row] of rows.entries()) {
      const message = messages[n];
      const requestedAt = new Date(message.requestedAt);
      expect(requestedAt.getTime()).toBeGreaterThanOrEqual(before.getTime());
      expect(message).toEqual(
        deliveryMessage(
          { eventId: event.id, endpointId: message.endpointId, retryStep: 0, manual: false },
          requestedAt,
        ),
      );
      expect(parseWebhookDeliveryRequest(row.payload)).toEqual({
        eventId: event.id,
        endpointId: message.endpointId,
        retryStep: 0,
        manual: false,
        requestedAt: message.requestedAt,
      });
      expect(row).toMatchObject({
        routing_key: WEBHOOK_DELIVER_ROUTING_KEY,
        message_type: WEBHOOK_DELIVERY_REQUESTED_V2,
      });
      expect(row.headers).toMatchObject({ [REQUEST_ID_HEADER]: 'req_eventwriterspec' });
    }
    const { rows: deliveries } = await db.query(`SELECT endpoint_id FROM webhook_deliveries WHERE event_id = $1`, [
      event.id,
    ]);
    expect(deliveries.map((row: { endpoint_id: string }) => row.endpoint_id).sort()).toEqual([...taking].sort());
  });

  it('writes no outbox row for an event that no endpoint takes', async () => {
    await endpoint(['refund.succeeded']);
    const event = completedEvent();
    await new EventWriter(sql).record([event]);
    const { rows } = await db.query(`SELECT 1 FROM outbox WHERE payload::jsonb ->> 'eventId' = $1`, [event.id]);
    expect(rows).toHaveLength(0);
    const { rows: events } = await db.query(`SELECT delivery_status FROM events WHERE id = $1`, [event.id]);
    expect(events).toEqual([{ delivery_status: 'skipped' }]);
  });
  it("reads each event's own endpoints by the index, never every merchant's, as the ledger plans it", async () => {
    await endpoint(['payment.completed']);
    let statement: { text: string; params: unknown[] } | undefined;
    const recorded: Sql = async (text, params = []) => {
      statement = { text, params };
      return [];
    };
    await new EventWriter(recorded).record([completedEvent()]);
    if (!statement) throw new Error('record sent no statement');
    // The plan the ledger's transaction gets (a generic one, scans off), with the statement's own values.
    await db.query(KEYED_PLANS_FOR_TRANSACTION);
    await db.query(`PREPARE record_events AS ${statement.text}`);
    const literals: string[] = [];
    for (const param of statement.params) {
      const value = typeof param === 'object' && !Array.isArray(param) ? JSON.stringify(param) : param;
      const { rows } = await db.query<{ literal: string }>('SELECT quote_literal($1::text) AS literal', [value]);
      literals.push(rows[0].literal);
    }
    const { rows } = await db.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
      `EXPLAIN (FORMAT JSON) EXECUTE record_events(${literals.join(', ')})`,
    );
    await db.query('DEALLOCATE record_events');
    const endpointReads = nodesOf(rows[0]['QUERY PLAN'][0].Plan).filter(
      (node) => node['Relation Name'] === 'webhook_endpoints',
    );
    expect(endpointReads.length).toBeGreaterThan(0);
    // A bitmap scan names its condition on the heap scan as Recheck Cond; either way, by the merchant.
    for (const read of endpointReads) expect(read['Index Cond'] ?? read['Recheck Cond']).toMatch(/merchant_id = /);
  });
});

interface PlanNode {
  'Relation Name'?: string;
  'Index Cond'?: string;
  'Recheck Cond'?: string;
  Plans?: PlanNode[];
}

const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];
