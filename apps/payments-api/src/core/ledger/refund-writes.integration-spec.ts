import type { Sql } from '@payhook/persistence';
import { Client } from 'pg';
import { dropDatabase } from '../../../../../test/support/drop-database';
import { createFromTemplate } from '../../../../../test/support/template-database';
import { specDatabaseUrl } from '../../../../../test/support/spec-database';
import { EventWriter } from './event-writer';
import { RefundWrites, type RefundWanted } from './refund-writes';
import { SettlementWriter } from './settlement-writer';

const MERCHANT = 'mch_refundwritesguard00001';
const SCOPE = { merchantId: MERCHANT, livemode: true };
const AMOUNT = 10_000;
const PART = 137;
const CLIENTS = 8;
const TRIES_PER_CLIENT = 12;

/**
 * The guarded reserve of RefundWrites.hold on its own, with payments_refund_amounts_check and
 * payments_refund_tax_free_check dropped: the backstops cannot be what keeps racing refunds within
 * their payment (its amount, its tax-free part, its taxable part), so this shows the guard itself
 * does. In a database of its own, since the constraints go.
 */
describe('RefundWrites.hold without the CHECK backstop', () => {
  const url = specDatabaseUrl('refund_guard');
  const clients: Client[] = [];

  beforeAll(async () => {
    await createFromTemplate(url);
    for (let n = 0; n < CLIENTS; n++) {
      const client = new Client({ connectionString: url });
      await client.connect();
      clients.push(client);
    }
    const [db] = clients;
    await db.query(`ALTER TABLE payments DROP CONSTRAINT payments_refund_amounts_check`);
    await db.query(`ALTER TABLE payments DROP CONSTRAINT payments_refund_tax_free_check`);
    await db.query(
      `INSERT INTO merchants (id, name, status, time_zone, fee_bps, settlement_delay_days)
       VALUES ($1, 'Refund guard', 'live', 'Asia/Seoul', 250, 2)`,
      [MERCHANT],
    );
  }, 120_000);

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.end()));
    await dropDatabase(url);
  });

  const completedPayment = async (id: string, taxFree = 0) => {
    await clients[0].query(
      `INSERT INTO payments (id, merchant_id, livemode, order_id, customer_id, amount, currency, status, return_url,
         pay_suffix, expires_at, created_at, completed_at, tax_free_amount)
       VALUES ($1, $2, true, $1, 'customer-1', $3, 'KRW', 'completed', 'https://shop.example/return',
         $1, now() + interval '1 hour', now(), now(), $4)`,
      [id, MERCHANT, AMOUNT, taxFree],
    );
    return id;
  };

  /** One hold in its own transaction on `client`, as Ledger.write runs it (a number: that amount, null: the remainder). */
  const holdOn = async (client: Client, paymentId: string, wanted: number | null | RefundWanted) => {
    const sql: Sql = async (text, params) => (await client.query(text, params)).rows;
    const writes = new RefundWrites(sql, new EventWriter(sql), new SettlementWriter(sql));
    await client.query('BEGIN');
    try {
      const hold = await writes.hold(
        SCOPE,
        paymentId,
        typeof wanted === 'number' ? { amount: wanted } : wanted === null ? {} : wanted,
      );
      await client.query('COMMIT');
      return hold;
    } catch (error) {
      await client.query('ROLLBACK');
      throw error;
    }
  };

  const heldOf = async (paymentId: string) =>
    Number(
      (await clients[0].query(`SELECT refund_held_amount FROM payments WHERE id = $1`, [paymentId])).rows[0]
        .refund_held_amount,
    );
  const taxFreeHeldOf = async (paymentId: string) =>
    Number(
      (await clients[0].query(`SELECT refund_held_tax_free_amount FROM payments WHERE id = $1`, [paymentId])).rows[0]
        .refund_held_tax_free_amount,
    );

  it('really runs without the constraint: a direct over-hold is accepted', async () => {
    const paymentId = await completedPayment('pay_refundwritesguard0000001');
    await clients[0].query(`UPDATE payments SET refund_held_amount = amount + 1 WHERE id = $1`, [paymentId]);
    expect(await heldOf(paymentId)).toBe(AMOUNT + 1);
  });

  it('holds exactly as many racing parts as fit, and nothing more', async () => {
    const paymentId = await completedPayment('pay_refundwritesguard0000002');
    const outcomes = await Promise.all(
      clients.map(async (client) => {
        const mine = [];
        for (let n = 0; n < TRIES_PER_CLIENT; n++) mine.push(await holdOn(client, paymentId, PART));
        return mine;
      }),
    );
    const held = outcomes.flat().filter((outcome) => typeof outcome === 'object');
    expect(CLIENTS * TRIES_PER_CLIENT * PART).toBeGreaterThan(AMOUNT);
    expect(held).toHaveLength(Math.floor(AMOUNT / PART));
    expect(outcomes.flat().filter((outcome) => outcome === 'amount_exceeded')).toHaveLength(
      CLIENTS * TRIES_PER_CLIENT - held.length,
    );
    expect(await heldOf(paymentId)).toBe(held.length * PART);
  });

  it('takes the whole remainder once when many ask for it at the same time', async () => {
    const paymentId = await completedPayment('pay_refundwritesguard0000003');
    await holdOn(clients[0], paymentId, 1_000);
    const outcomes = await Promise.all(clients.map((client) => holdOn(client, paymentId, null)));
    const held = outcomes.filter((outcome) => typeof outcome === 'object');
    expect(held).toEqual([expect.objectContaining({ amount: AMOUNT - 1_000 })]);
    expect(await heldOf(paymentId)).toBe(AMOUNT);
  });

  it('gives the last tax-free won to one of many refunds asking for it at the same time', async () => {
    const paymentId = await completedPayment('pay_refundwritesguard0000004', 3_000);
    await holdOn(clients[0], paymentId, { amount: 2_999, taxFreeAmount: 2_999 });
    const outcomes = await Promise.all(
      clients.map((client) => holdOn(client, paymentId, { amount: 1, taxFreeAmount: 1 })),
    );
    expect(outcomes.filter((outcome) => typeof outcome === 'object')).toEqual([
      expect.objectContaining({ amount: 1, taxFreeAmount: 1 }),
    ]);
    expect(outcomes.filter((outcome) => outcome === 'tax_free_amount_invalid')).toHaveLength(CLIENTS - 1);
    expect(await taxFreeHeldOf(paymentId)).toBe(3_000);
  });

  it('throws, holding nothing, when the guard refuses an ask decideRefund did not make (a broken invariant)', async () => {
    const paymentId = await completedPayment('pay_refundwritesguard0000006', 3_000);
    const [client] = clients;
    const sql: Sql = async (text, params) => (await client.query(text, params)).rows;
    const writes = new RefundWrites(sql, new EventWriter(sql), new SettlementWriter(sql));
    for (const ask of [
      { amount: AMOUNT + 1, taxFreeAmount: 0 },
      { amount: 4_000, taxFreeAmount: 3_001 },
      { amount: AMOUNT - 2_000, taxFreeAmount: 0 },
    ]) {
      await client.query('BEGIN');
      await expect(writes.holdAll([{ scope: SCOPE, paymentId, ...ask }])).rejects.toThrow(/guarded hold refused/);
      await client.query('ROLLBACK');
    }
    expect(await heldOf(paymentId)).toBe(0);
  });

  it('keeps racing refunds within the tax-free and the taxable part, explicit parts and default shares alike', async () => {
    const paymentId = await completedPayment('pay_refundwritesguard0000005', 3_000);
    const outcomes = await Promise.all(
      clients.map(async (client, n) => {
        const mine = [];
        for (let k = 0; k < TRIES_PER_CLIENT; k++) {
          // Some all tax-free, some all taxable, some the default share of what is left.
          const wanted = [{ amount: 700, taxFreeAmount: 700 }, { amount: 600, taxFreeAmount: 0 }, { amount: 500 }][
            (n + k) % 3
          ];
          mine.push(await holdOn(client, paymentId, wanted));
        }
        return mine;
      }),
    );
    const held = outcomes.flat().filter((outcome) => typeof outcome === 'object');
    const sum = (key: 'amount' | 'taxFreeAmount') => held.reduce((total, hold) => total + hold[key], 0);
    expect(await heldOf(paymentId)).toBe(sum('amount'));
    expect(await taxFreeHeldOf(paymentId)).toBe(sum('taxFreeAmount'));
    expect(sum('taxFreeAmount')).toBeLessThanOrEqual(3_000);
    expect(sum('amount') - sum('taxFreeAmount')).toBeLessThanOrEqual(AMOUNT - 3_000);
    // Every ask refused was refused for a limit. Which limit each meets depends on the order the asks
    // came in (the parts may run out before the whole or with it), so no count of either is asserted
    // here; the race for the last tax-free won above holds the tax-free refusal to its count.
    const refused = outcomes.flat().filter((outcome) => typeof outcome !== 'object');
    expect(refused.length).toBeGreaterThan(0); // the asks add up to several times the payment
    expect(refused.filter((outcome) => outcome !== 'amount_exceeded' && outcome !== 'tax_free_amount_invalid')).toEqual(
      [],
    );
  });
});
