// The refund load of npm run bench: completed test payments seeded straight into the database, then
// partial refunds spread over them, so the figure is a refund's own cost and not a queue on one row.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const REFUND_PAYMENTS = Number(process.env.BENCH_REFUND_PAYMENTS ?? 20_000);
const PAYMENT_AMOUNT = 15_000;
export const REFUND_AMOUNT = 1_000;
/** Refunds each seeded payment can take before its remainder is gone (409 refund_amount_exceeded). */
const REFUNDS_PER_PAYMENT = PAYMENT_AMOUNT / REFUND_AMOUNT;

/**
 * `count` completed test payments of the merchant, as a completion leaves them: each with its
 * settlement record at the merchant's fee rate, so a refund takes the normal path (the rate of the
 * payment's own record), not the one of a payment completed before records existed. The payout date
 * is the sales date plus the delay in calendar days: no refund reads it. Returns their ids.
 */
export async function seedCompletedPayments(connectionString, merchantId, count = REFUND_PAYMENTS) {
  const db = new pg.Client({ connectionString });
  await db.connect();
  try {
    const tag = randomBytes(4).toString('hex');
    const { rows } = await db.query(
      `WITH paid AS (
         INSERT INTO payments (id, merchant_id, livemode, order_id, customer_id, amount, currency, status, return_url,
                               pay_suffix, expires_at, created_at, completed_at)
         SELECT 'pay_' || $2 || lpad(g::text, 20, '0'), $1, false, 'r-' || $2 || '-' || g, 'bench', $4, 'KRW',
                'completed', 'https://shop.example', 'r' || $2 || g, now() + interval '1 hour', now(), now()
         FROM generate_series(1, $3) g
         RETURNING id, merchant_id, order_id, amount, completed_at
       ), terms AS (
         SELECT paid.*, m.fee_bps, m.settlement_delay_days, paid.amount * m.fee_bps / 10000 AS fee,
                (paid.completed_at AT TIME ZONE 'Asia/Seoul')::date AS sales_date
         FROM paid JOIN merchants m ON m.id = paid.merchant_id
       ), settled AS (
         INSERT INTO settlements (payment_id, merchant_id, livemode, order_id, gross_amount, fee_bps, fee_amount,
                                  vat_amount, net_amount, sales_date, payout_date, payout_rule, completed_at, type)
         SELECT id, merchant_id, false, order_id, amount, fee_bps, fee, fee * 10 / 100, amount - fee - fee * 10 / 100,
                sales_date, sales_date + settlement_delay_days, 'kr_public_holidays', completed_at, 'payment'
         FROM terms
       )
       SELECT id FROM paid`,
      [merchantId, tag, count, PAYMENT_AMOUNT],
    );
    return rows.map((row) => row.id);
  } finally {
    await db.end();
  }
}

/**
 * `next`, a `makeRequest` for postLoad: each call a ₩1,000 refund with its own Idempotency-Key, of
 * the next payment in turn. With 50 requests in flight over thousands of payments, no two wait on one
 * row lock. Once every seeded payment is fully refunded the API answers 409 and the load fails;
 * `exhausted()` then tells why.
 */
export function refundRequests(paymentIds) {
  const capacity = paymentIds.length * REFUNDS_PER_PAYMENT;
  // Keys of their own, also beside another run's or another generator's (a reused key with another body is a 422).
  const tag = randomBytes(4).toString('hex');
  let sent = 0;
  const next = () => {
    const paymentId = paymentIds[sent % paymentIds.length];
    sent += 1;
    return {
      path: `/v1/payments/${paymentId}/refunds`,
      idempotencyKey: `bench-refund-${tag}-${sent}`,
      body: { amount: REFUND_AMOUNT, reason: 'bench partial refund' },
    };
  };
  return { next, exhausted: () => sent > capacity, capacity };
}
