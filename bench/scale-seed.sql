-- A year of history, written straight into the tables (npm run bench:scale and the query-plan test).
-- $1 payments in all, $2 merchants (mch_scale0000000000000001 …), $3 the share of the first merchant (0–1).
-- Status mix of a healthy integration: 99.3% completed, 0.4% failed, 0.15% canceled, 0.1% expired,
-- the newest 0.05% pending. Every completed payment has its event, one successful attempt, its
-- settlement and a published outbox row. Runs in one transaction; a few minutes at 10 million.
INSERT INTO merchants (id, name, status, time_zone, fee_bps, settlement_delay_days)
SELECT 'mch_scale' || lpad(m::text, 16, '0'), 'Scale Shop ' || m, 'live', 'Asia/Seoul', 250, 2
FROM generate_series(1, $2::int) m;

CREATE TEMP TABLE scale_payments ON COMMIT DROP AS
SELECT
  'pay_scale' || lpad(g::text, 16, '0') AS id,
  'mch_scale' || lpad((CASE WHEN g <= $1::bigint * $3::float8 THEN 1
                             ELSE 2 + g % greatest($2::int - 1, 1) END)::text, 16, '0') AS merchant_id,
  -- oldest first: g = 1 is a year ago, the last one is now
  -- whole milliseconds, as the API writes them (cursors carry milliseconds)
  date_trunc('milliseconds', now() - interval '365 days' * (1 - g::float8 / $1::bigint)) AS created_at,
  CASE WHEN g > $1::bigint * 0.9995 THEN 'pending'
       WHEN g % 1000 < 4 THEN 'failed'
       WHEN g % 2000 = 5 OR g % 2000 = 6 OR g % 2000 = 7 THEN 'canceled'
       WHEN g % 1000 = 9 THEN 'expired'
       ELSE 'completed' END AS status,
  g
FROM generate_series(1, $1::bigint) g;

INSERT INTO payments (id, merchant_id, livemode, order_id, customer_id, amount, currency, status, return_url,
                      pay_suffix, expires_at, created_at, completed_at, updated_at)
SELECT id, merchant_id, true, 'order-' || g, 'cust-' || (g % 50000), 1000 + (g % 97) * 100, 'KRW', status,
       'https://shop.example/return', 's' || g,
       created_at + interval '30 minutes', created_at,
       CASE WHEN status = 'completed' THEN created_at + interval '1 minute' END, created_at + interval '1 minute'
FROM scale_payments;

INSERT INTO events (id, merchant_id, livemode, type, payment_id, body, created_at, delivery_status,
                    attempt_count, last_attempt_at)
SELECT 'evt_scale' || lpad(g::text, 16, '0'), merchant_id, true, 'payment.completed', id,
       json_build_object('id', 'evt_scale' || lpad(g::text, 16, '0'), 'type', 'payment.completed',
         'createdAt', to_char((created_at + interval '1 minute') AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
         'data', json_build_object('paymentId', id, 'orderId', 'order-' || g, 'amount', 1000 + (g % 97) * 100,
           'currency', 'KRW',
           'completedAt', to_char((created_at + interval '1 minute') AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')))::text,
       created_at + interval '1 minute', 'succeeded', 1, created_at + interval '1 minute'
FROM scale_payments WHERE status = 'completed';

INSERT INTO webhook_attempts (id, event_id, number, url, started_at, duration_ms, response_status)
SELECT 'att_scale' || lpad(g::text, 16, '0'), 'evt_scale' || lpad(g::text, 16, '0'), 1,
       'https://shop.example/webhooks', created_at + interval '1 minute', 25, 200
FROM scale_payments WHERE status = 'completed';

INSERT INTO settlements (payment_id, merchant_id, livemode, order_id, gross_amount, fee_bps, fee_amount,
                         vat_amount, net_amount, sales_date, payout_date, completed_at)
SELECT id, merchant_id, true, 'order-' || g, 10000, 250, 250, 25, 9725,
       (created_at AT TIME ZONE 'Asia/Seoul')::date, (created_at AT TIME ZONE 'Asia/Seoul')::date + 2,
       created_at + interval '1 minute'
FROM scale_payments WHERE status = 'completed';

INSERT INTO outbox (routing_key, message_type, payload, created_at, published_at)
SELECT 'webhook.deliver', 'webhook.delivery-requested.v1', '{}', created_at, created_at + interval '1 second'
FROM scale_payments WHERE status = 'completed';
