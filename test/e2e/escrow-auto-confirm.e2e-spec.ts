import { EscrowAutoConfirmTask } from '../../apps/payments-api/src/money/escrow/escrow-auto-confirm.task';
import { idemKey } from '../support/api-expectations';
import { PaymentsApiHarness, paymentBody, type TestMerchant } from '../support/payments-api.harness';
import { pollUntil } from '../support/poll-until';

const SHIPMENT = { carrier: 'CJ대한통운', trackingNumber: '6901-2345-6789' };
const seoulDate = (at: string | Date) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Seoul' }).format(new Date(at));

/**
 * A shipped escrow the buyer leaves open confirms by itself at its autoConfirmAt: once, whichever of
 * several API instances gets to it, with escrow.confirmed (autoConfirmed true) and its payout scheduled.
 */
describe('escrow auto-confirm', () => {
  let first: PaymentsApiHarness;
  let second: PaymentsApiHarness;
  let merchant: TestMerchant;

  beforeAll(async () => {
    // Two instances of the API on one database, as a deployment runs them.
    [first, second] = await Promise.all([
      PaymentsApiHarness.start({ RATE_LIMIT_PER_SECOND: '0' }),
      PaymentsApiHarness.start({ RATE_LIMIT_PER_SECOND: '0', ESCROW_AUTO_CONFIRM_DAYS: '0' }),
    ]);
    merchant = await first.merchantWithKey('test');
  });
  afterAll(async () => {
    await first?.stop();
    await second?.stop();
  });

  async function shipped(api: PaymentsApiHarness): Promise<string> {
    const created = await api
      .as(merchant)
      .post('/v1/payments')
      .set('Idempotency-Key', idemKey())
      .send(paymentBody({ escrow: { buyerEmail: 'buyer@example.com' } }))
      .expect(201);
    const id = created.body.data.id as string;
    await api.as(merchant).post(`/v1/test-helpers/payments/${id}/complete`).expect(200);
    await api.as(merchant).post(`/v1/payments/${id}/escrow/shipment`).send(SHIPMENT).expect(200);
    return id;
  }

  it('with ESCROW_AUTO_CONFIRM_DAYS=0, confirms a shipment on the midnight that began its day, by itself', async () => {
    const id = await shipped(second);
    const shippedEscrow = (await second.as(merchant).get(`/v1/payments/${id}`).expect(200)).body.data.escrow;
    expect(shippedEscrow.autoConfirmAt).toMatch(/T15:00:00\.000Z$/);
    expect(new Date(shippedEscrow.autoConfirmAt).getTime()).toBeLessThanOrEqual(
      new Date(shippedEscrow.shippedAt).getTime(),
    );
    expect(new Date(shippedEscrow.shippedAt).getTime() - new Date(shippedEscrow.autoConfirmAt).getTime()).toBeLessThan(
      86_400_000,
    );

    // Nobody confirms: the task does, within its period.
    const confirmed = await pollUntil(
      async () => (await second.as(merchant).get(`/v1/payments/${id}`).expect(200)).body.data.escrow,
      (escrow: { status: string; confirmedAt: string }) => escrow.status === 'confirmed',
    );
    const events = (await second.as(merchant).get('/v1/events').query({ paymentId: id }).expect(200)).body.data as {
      type: string;
      data: Record<string, unknown>;
    }[];
    expect(events.filter((event) => event.type === 'escrow.confirmed')).toEqual([
      expect.objectContaining({
        data: expect.objectContaining({ confirmedAt: confirmed.confirmedAt, autoConfirmed: true }),
      }),
    ]);
    const settlements = (await second.as(merchant).get('/v1/settlements').query({ limit: '100' }).expect(200)).body
      .data as { paymentId: string; payoutStatus: string; payoutDate: string }[];
    const record = settlements.find((one) => one.paymentId === id)!;
    expect(record.payoutStatus).toBe('scheduled');
    expect(record.payoutDate > seoulDate(confirmed.confirmedAt)).toBe(true);
  });

  it('two instances running the task over 200 due escrows confirm each exactly once, with one event each', async () => {
    const ids: string[] = [];
    // Shipped with the default 7 business days, then their day is made to have come.
    for (let batch = 0; batch < 10; batch++)
      ids.push(...(await Promise.all(Array.from({ length: 20 }, () => shipped(first)))));
    await first.sql(`UPDATE payments SET escrow_auto_confirm_at = now() - interval '1 second' WHERE id = ANY ($1)`, [
      ids,
    ]);

    const tasks = [first, second].map((api) => api.app.get(EscrowAutoConfirmTask));
    // Both at once, twice over (each instance's own timer may be running a tick too).
    await Promise.all([...tasks, ...tasks].map((task) => task.runOnce()));

    const [statuses] = await first.sql<{ confirmed: number; auto: number }>(
      `SELECT count(*) FILTER (WHERE escrow_status = 'confirmed')::int AS confirmed,
              count(*) FILTER (WHERE escrow_auto_confirmed)::int AS auto
       FROM payments WHERE id = ANY ($1)`,
      [ids],
    );
    expect(statuses).toEqual({ confirmed: 200, auto: 200 });
    const events = await first.sql<{ payment_id: string; events: number; auto: boolean }>(
      `SELECT payment_id, count(*)::int AS events, bool_and((body::jsonb -> 'data' ->> 'autoConfirmed')::boolean) AS auto
       FROM events WHERE payment_id = ANY ($1) AND type = 'escrow.confirmed' GROUP BY payment_id`,
      [ids],
    );
    expect(events).toHaveLength(200);
    expect(events.every((row) => row.events === 1 && row.auto)).toBe(true);
    const [held] = await first.sql<{ held: number }>(
      `SELECT count(*)::int AS held FROM settlements WHERE payment_id = ANY ($1) AND payout_status = 'held'`,
      [ids],
    );
    expect(held.held).toBe(0);
  });
});
