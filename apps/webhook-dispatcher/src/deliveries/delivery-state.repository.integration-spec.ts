import { dataSourceOptions } from '@payhook/persistence';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { dropDatabase } from '../../../../test/support/drop-database';
import { createFromTemplate } from '../../../../test/support/template-database';
import { specDatabaseUrl } from '../../../../test/support/spec-database';
import { DeliveryStateRepository } from './delivery-state.repository';

const HEADERS = {
  'x-request-id': 'req_recover_spec',
  traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
};

interface DeliveryRow {
  event_id: string;
  endpoint_id: string;
  merchant_id: string;
  livemode: boolean;
  status: string;
  undelivered_reason: string | null;
  lane_due_at: Date | null;
  lane_retry_step: number | null;
  lane_headers: Record<string, string> | null;
  recovery_id: string | null;
  created_at: Date;
}

/**
 * What payments-api asks of the dispatcher's deliveries, against the real schema: a recover queues
 * the failed deliveries of its scope once, oldest event first, and a deleted endpoint is owed nothing
 * more. In a database of its own (copied from the migrated template), so the rows seen are these only.
 */
describe('DeliveryStateRepository', () => {
  const url = specDatabaseUrl('delivery_state');
  let db: DataSource;
  let repository: DeliveryStateRepository;
  let serial = 0;
  /** A fixed instant in the past: every row's created_at is chosen by the spec, not now(). */
  const base = Date.parse('2026-03-02T09:00:00.000Z');
  const at = (minutes: number) => new Date(base + minutes * 60_000);

  beforeAll(async () => {
    await createFromTemplate(url);
    db = await new DataSource(
      dataSourceOptions({ url, entities: [], applicationName: 'payhook-delivery-state-spec' }),
    ).initialize();
    repository = new DeliveryStateRepository(db);
  }, 120_000);

  afterAll(async () => {
    await db?.destroy();
    await dropDatabase(url);
  });

  const next = () => String(++serial).padStart(6, '0');

  const merchant = async () => {
    const id = `mch_deliverystate${next()}`;
    await db.query(
      `INSERT INTO merchants (id, name, status, time_zone, fee_bps, settlement_delay_days)
       VALUES ($1, 'Delivery state', 'live', 'Asia/Seoul', 250, 2)`,
      [id],
    );
    return id;
  };

  const endpoint = async (merchantId: string, livemode: boolean, enabledEvents = ['payment.completed']) => {
    const id = `we_deliverystate${next()}`;
    await db.query(
      `INSERT INTO webhook_endpoints (id, merchant_id, livemode, url, signing_secret, enabled_events)
       VALUES ($1, $2, $3, $4, 'whsec_spec', $5)`,
      [id, merchantId, livemode, `https://shop.example/webhooks/${id}`, enabledEvents],
    );
    return id;
  };

  /** An event (and the payment it is about) of `merchantId` in `livemode`, created at `createdAt`. */
  const event = async (
    merchantId: string,
    livemode: boolean,
    createdAt: Date,
    deliveryStatus: 'pending' | 'succeeded' | 'failed' = 'failed',
    type = 'payment.completed',
    // Random unless named: the first spec names its events so that their ids do not sort as they were created.
    id = `evt_deliverystate${randomBytes(6).toString('hex')}`,
  ) => {
    const paymentId = `pay_${id.slice(4)}`;
    await db.query(
      `INSERT INTO payments (id, merchant_id, livemode, order_id, customer_id, amount, currency, status, return_url,
         pay_suffix, expires_at, created_at, completed_at)
       VALUES ($1, $2, $3, $1, 'customer-1', 10000, 'KRW', 'completed', 'https://shop.example/return', $1,
         $4::timestamptz + interval '1 hour', $4, $4)`,
      [paymentId, merchantId, livemode, createdAt],
    );
    await db.query(
      `INSERT INTO events (id, merchant_id, livemode, type, payment_id, body, created_at, delivery_status,
         undelivered_reason)
       VALUES ($1, $2, $3, $4, $5, '{}', $6, $7, CASE WHEN $7 = 'failed' THEN 'retries_exhausted' END)`,
      [id, merchantId, livemode, type, paymentId, createdAt, deliveryStatus],
    );
    return id;
  };

  const delivery = async (
    eventId: string,
    endpointId: string,
    status: 'pending' | 'succeeded' | 'failed',
    lane: { dueAt: Date; retryStep: number } | null = null,
  ) => {
    await db.query(
      `INSERT INTO webhook_deliveries (event_id, endpoint_id, merchant_id, livemode, status, undelivered_reason,
         lane_due_at, lane_retry_step, lane_headers, created_at)
       SELECT e.id, $2, e.merchant_id, e.livemode, $3, CASE WHEN $3 = 'failed' THEN 'retries_exhausted' END,
         $4::timestamptz, $5::int, CASE WHEN $4::timestamptz IS NOT NULL THEN '{"x-request-id":"req_first"}'::jsonb END,
         e.created_at
       FROM events e WHERE e.id = $1`,
      [eventId, endpointId, status, lane?.dueAt ?? null, lane?.retryStep ?? null],
    );
  };

  const recovery = async (
    merchantId: string,
    livemode: boolean,
    since: Date,
    endpointId: string | null = null,
  ): Promise<{ recoveryId: string }> => {
    const recoveryId = `rcv_deliverystate${next()}`;
    // As payments-api records a recover it has not carried out: applied_at NULL, with the request's headers.
    await db.query(
      `INSERT INTO event_recoveries (id, merchant_id, livemode, since, queued, endpoint_id, headers, applied_at)
       VALUES ($1, $2, $3, $4, 0, $5, $6, NULL)`,
      [recoveryId, merchantId, livemode, since, endpointId, JSON.stringify(HEADERS)],
    );
    return { recoveryId };
  };

  const deliveriesWhere = (where: string, params: unknown[]): Promise<DeliveryRow[]> =>
    db.query(`SELECT * FROM webhook_deliveries WHERE ${where} ORDER BY event_id, endpoint_id`, params);
  const deliveriesOfEvents = (eventIds: string[]) => deliveriesWhere('event_id = ANY ($1)', [eventIds]);
  const dbNow = async () => (await db.query<{ now: Date }[]>(`SELECT clock_timestamp() AS now`))[0].now;

  describe('applyRecovery', () => {
    it('queues the failed deliveries of its scope since `since`, oldest event first, and touches nothing else', async () => {
      const merchantId = await merchant();
      const other = await merchant();
      const first = await endpoint(merchantId, true);
      const second = await endpoint(merchantId, true, ['payment.completed', 'payment.failed']);
      const testMode = await endpoint(merchantId, false);
      const othersEndpoint = await endpoint(other, true);
      const since = at(0);

      // Failed since `since`, written in neither creation nor id order, on both endpoints of the scope.
      const third = await event(merchantId, true, at(30), 'failed', 'payment.completed', 'evt_deliverystate_a3');
      await delivery(third, second, 'failed');
      const firstEvent = await event(merchantId, true, at(10), 'failed', 'payment.completed', 'evt_deliverystate_z1');
      await delivery(firstEvent, first, 'failed');
      const fourth = await event(merchantId, true, at(40), 'failed', 'payment.completed', 'evt_deliverystate_b4');
      await delivery(fourth, first, 'failed');
      const secondEvent = await event(merchantId, true, at(20), 'failed', 'payment.completed', 'evt_deliverystate_m2');
      await delivery(secondEvent, second, 'failed');
      // Created exactly at `since`: included.
      const atSince = await event(merchantId, true, since, 'failed', 'payment.completed', 'evt_deliverystate_y0');
      await delivery(atSince, second, 'failed');
      // A failed event that had no endpoint then, between the others: only `second` takes its type.
      const unsent = await event(merchantId, true, at(25), 'failed', 'payment.failed', 'evt_deliverystate_c25');

      // Not the recovery's: older than `since`, another mode, another merchant, not failed.
      const older = await event(merchantId, true, at(-1));
      await delivery(older, first, 'failed');
      const olderUnsent = await event(merchantId, true, at(-2));
      const inTestMode = await event(merchantId, false, at(15));
      await delivery(inTestMode, testMode, 'failed');
      const unsentInTestMode = await event(merchantId, false, at(16));
      const ofOther = await event(other, true, at(15));
      await delivery(ofOther, othersEndpoint, 'failed');
      const unsentOfOther = await event(other, true, at(16));
      const succeeded = await event(merchantId, true, at(12), 'succeeded');
      await delivery(succeeded, first, 'succeeded');
      const pending = await event(merchantId, true, at(14), 'pending');
      await delivery(pending, first, 'pending', { dueAt: at(60), retryStep: 3 });
      // Not failed and without a delivery yet: the dispatcher's own to send, not the recovery's.
      const notYetSent = await event(merchantId, true, at(17), 'pending');
      const untouched = [
        older,
        olderUnsent,
        inTestMode,
        unsentInTestMode,
        ofOther,
        unsentOfOther,
        succeeded,
        pending,
        notYetSent,
      ];
      const untouchedBefore = await deliveriesOfEvents(untouched);
      expect(untouchedBefore).toHaveLength(5);

      const recover = await recovery(merchantId, true, since);
      const before = await dbNow();
      const queued = await repository.applyRecovery(recover.recoveryId);
      const after = await dbNow();

      expect(queued).toBe(6);
      const recovered = await db.query<DeliveryRow[]>(
        `SELECT * FROM webhook_deliveries WHERE recovery_id = $1 ORDER BY lane_due_at`,
        [recover.recoveryId],
      );
      // The order the lanes will send them in: the events' own.
      expect(recovered.map((row) => row.event_id)).toEqual([atSince, firstEvent, secondEvent, unsent, third, fourth]);
      expect(recovered.map((row) => row.endpoint_id)).toEqual([second, first, second, second, second, first]);
      for (const row of recovered) {
        expect(row).toMatchObject({
          merchant_id: merchantId,
          livemode: true,
          status: 'pending',
          undelivered_reason: null,
          lane_retry_step: 0,
          lane_headers: HEADERS,
          recovery_id: recover.recoveryId,
        });
        // Due now, not later: the lanes send them at once.
        expect(row.lane_due_at!.getTime()).toBeGreaterThanOrEqual(before.getTime() - 1_000);
        expect(row.lane_due_at!.getTime()).toBeLessThanOrEqual(after.getTime() + 1_000);
      }
      // Each its own instant (microseconds apart, finer than a Date), so the lanes' order is not left to chance.
      const [{ instants }] = await db.query<{ instants: number }[]>(
        `SELECT count(DISTINCT lane_due_at)::int AS instants FROM webhook_deliveries WHERE recovery_id = $1`,
        [recover.recoveryId],
      );
      expect(instants).toBe(recovered.length);

      expect(await deliveriesOfEvents(untouched)).toEqual(untouchedBefore);
      const [{ applied_at }] = await db.query<{ applied_at: Date | null }[]>(
        `SELECT applied_at FROM event_recoveries WHERE id = $1`,
        [recover.recoveryId],
      );
      expect(applied_at).toBeInstanceOf(Date);
    });

    it('gives a failed event that had no delivery a pending delivery to each endpoint of the scope that takes its type', async () => {
      const merchantId = await merchant();
      const other = await merchant();
      const completedOnly = await endpoint(merchantId, true);
      const both = await endpoint(merchantId, true, ['payment.completed', 'payment.failed']);
      const failedOnly = await endpoint(merchantId, true, ['payment.failed']);
      const testMode = await endpoint(merchantId, false, ['payment.completed', 'payment.failed']);
      const othersEndpoint = await endpoint(other, true, ['payment.completed', 'payment.failed']);
      const since = at(0);
      const completed = await event(merchantId, true, at(5), 'failed', 'payment.completed');
      const failedPayment = await event(merchantId, true, at(6), 'failed', 'payment.failed');

      const recover = await recovery(merchantId, true, since);
      expect(await repository.applyRecovery(recover.recoveryId)).toBe(4);

      const made = await deliveriesOfEvents([completed, failedPayment]);
      expect(made.map((row) => [row.event_id, row.endpoint_id]).sort()).toEqual(
        [
          [completed, completedOnly],
          [completed, both],
          [failedPayment, both],
          [failedPayment, failedOnly],
        ].sort(),
      );
      expect(made.map((row) => row.endpoint_id)).not.toContain(testMode);
      expect(made.map((row) => row.endpoint_id)).not.toContain(othersEndpoint);
      for (const row of made) {
        expect(row).toMatchObject({
          merchant_id: merchantId,
          livemode: true,
          status: 'pending',
          undelivered_reason: null,
          lane_retry_step: 0,
          lane_headers: HEADERS,
          recovery_id: recover.recoveryId,
        });
        expect(row.lane_due_at).toBeInstanceOf(Date);
        // Its event's time, so a later recover's `since` finds it as it finds the others.
        expect(row.created_at).toEqual(row.event_id === completed ? at(5) : at(6));
      }
    });

    it('queues only what was owed to the endpoint it names', async () => {
      const merchantId = await merchant();
      const named = await endpoint(merchantId, true);
      const another = await endpoint(merchantId, true);
      const failed = await event(merchantId, true, at(5));
      await delivery(failed, named, 'failed');
      await delivery(failed, another, 'failed');
      const unsent = await event(merchantId, true, at(6));

      const recover = await recovery(merchantId, true, at(0), named);
      expect(await repository.applyRecovery(recover.recoveryId)).toBe(2);

      const rows = await deliveriesOfEvents([failed, unsent]);
      expect(rows.map((row) => [row.event_id, row.endpoint_id, row.status]).sort()).toEqual(
        [
          [failed, named, 'pending'],
          [failed, another, 'failed'],
          [unsent, named, 'pending'],
        ].sort(),
      );
    });

    it('queues nothing the second time the same recovery is applied', async () => {
      const merchantId = await merchant();
      const target = await endpoint(merchantId, true);
      const failed = await event(merchantId, true, at(5));
      await delivery(failed, target, 'failed');
      const unsent = await event(merchantId, true, at(6));
      const recover = await recovery(merchantId, true, at(0));

      expect(await repository.applyRecovery(recover.recoveryId)).toBe(2);
      // The recovered delivery fails again before the message is delivered a second time.
      await db.query(
        `UPDATE webhook_deliveries SET status = 'failed', undelivered_reason = 'retries_exhausted',
           lane_due_at = NULL, lane_retry_step = NULL
         WHERE event_id = $1`,
        [failed],
      );
      const between = await deliveriesOfEvents([failed, unsent]);

      expect(await repository.applyRecovery(recover.recoveryId)).toBeNull();
      expect(await deliveriesOfEvents([failed, unsent])).toEqual(between);
      expect(between.find((row) => row.event_id === failed)).toMatchObject({ status: 'failed', lane_due_at: null });
    });
  });

  describe('endDeliveriesOf', () => {
    /**
     * An endpoint owed two pending deliveries (one in its lane's retries), with one sent, one failed, and
     * one sent whose manual redelivery still waits in the lane.
     */
    const owedEndpoint = async () => {
      const merchantId = await merchant();
      const owed = await endpoint(merchantId, true);
      const neighbour = await endpoint(merchantId, true);
      const waiting = await event(merchantId, true, at(1), 'pending');
      await delivery(waiting, owed, 'pending', { dueAt: at(120), retryStep: 0 });
      const retrying = await event(merchantId, true, at(2), 'pending');
      await delivery(retrying, owed, 'pending', { dueAt: at(130), retryStep: 4 });
      const sent = await event(merchantId, true, at(3), 'succeeded');
      await delivery(sent, owed, 'succeeded');
      const gaveUp = await event(merchantId, true, at(4), 'failed');
      await delivery(gaveUp, owed, 'failed');
      const sentAndRedelivering = await event(merchantId, true, at(5), 'succeeded');
      await delivery(sentAndRedelivering, owed, 'succeeded', { dueAt: at(140), retryStep: 0 });
      await delivery(waiting, neighbour, 'pending', { dueAt: at(120), retryStep: 0 });
      return { merchantId, owed, neighbour, waiting, retrying, sent, gaveUp, sentAndRedelivering };
    };

    it('ends what a deleted endpoint was still owed as failed (endpoint_deleted) and empties its lane', async () => {
      const { owed, neighbour, waiting, retrying, sent, gaveUp, sentAndRedelivering } = await owedEndpoint();
      const othersBefore = await deliveriesWhere('endpoint_id = $1 OR (endpoint_id = $2 AND event_id = ANY ($3))', [
        neighbour,
        owed,
        [sent, gaveUp],
      ]);
      await db.query(`DELETE FROM webhook_endpoints WHERE id = $1`, [owed]);

      await repository.endDeliveriesOf(owed);

      const ended = await deliveriesWhere('endpoint_id = $1 AND event_id = ANY ($2)', [owed, [waiting, retrying]]);
      expect(ended).toHaveLength(2);
      for (const row of ended) {
        expect(row).toMatchObject({
          status: 'failed',
          undelivered_reason: 'endpoint_deleted',
          lane_due_at: null,
          lane_retry_step: null,
        });
      }
      expect(await deliveriesWhere('endpoint_id = $1 AND lane_due_at IS NOT NULL', [owed])).toEqual([]);
      // Out of the lane, but still sent: the redelivery that will not happen takes nothing from it.
      expect(await deliveriesWhere('endpoint_id = $1 AND event_id = $2', [owed, sentAndRedelivering])).toEqual([
        expect.objectContaining({ status: 'succeeded', undelivered_reason: null, lane_due_at: null }),
      ]);
      // What was already sent or given up keeps its ending; another endpoint's lane is its own.
      expect(
        await deliveriesWhere('endpoint_id = $1 OR (endpoint_id = $2 AND event_id = ANY ($3))', [
          neighbour,
          owed,
          [sent, gaveUp],
        ]),
      ).toEqual(othersBefore);
    });

    it('changes nothing while the endpoint still exists', async () => {
      const { owed, neighbour } = await owedEndpoint();
      const before = await deliveriesWhere('endpoint_id = ANY ($1)', [[owed, neighbour]]);

      await repository.endDeliveriesOf(owed);

      expect(await deliveriesWhere('endpoint_id = ANY ($1)', [[owed, neighbour]])).toEqual(before);
      expect(before.filter((row) => row.endpoint_id === owed && row.status === 'pending')).toHaveLength(2);
    });
  });
});
