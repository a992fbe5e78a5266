-- A year of history, written straight into the tables (npm run bench:scale and the query-plan test).
-- $1 payments in all, $2 merchants (mch_scale0000000000000001 …), $3 the share of the first merchant (0–1).
-- Status mix of a healthy integration: 99.3% completed, 0.4% failed, 0.15% canceled, 0.1% expired,
-- the newest 0.05% pending. Every completed payment has its event, its delivery to its merchant's
-- endpoint with one successful attempt, its settlement and a published outbox row. Runs in one transaction, as a superuser (the replica role
-- below); a few minutes at 10 million.

-- The rows are consistent by construction: the foreign-key triggers need not check them one by one.
-- The replica role skips triggers, for this transaction only (outbox_notify too: its rows are published).
SET LOCAL session_replication_role = replica;
-- For the index builds at the end: ample sort memory, and a second process on each build.
SET LOCAL maintenance_work_mem = '1GB';
SET LOCAL max_parallel_maintenance_workers = 1;

INSERT INTO merchants (id, name, status, time_zone, fee_bps, settlement_delay_days)
SELECT 'mch_scale' || lpad(m::text, 16, '0'), 'Scale Shop ' || m, 'live', 'Asia/Seoul', 250, 2
FROM generate_series(1, $2::int) m;

-- Every index of the big tables is built after the load, by one sort of its table, instead of taking
-- ten million insertions (and their WAL records) one by one during it: each is saved, dropped, and
-- created again at the end under the same name with the same definition. Only the keys that foreign
-- keys reference stay (payments_pkey, events_pkey): dropping them would drop those foreign keys.
CREATE TEMP TABLE scale_indexes ON COMMIT DROP AS
-- indexes of their own
SELECT 'DROP INDEX ' || i.indexrelid::regclass AS drop_it, pg_get_indexdef(i.indexrelid) AS build_it
FROM pg_index i
WHERE i.indrelid = ANY ('{payments, events, webhook_deliveries, webhook_attempts, settlements, outbox}'::regclass[])
  AND NOT EXISTS (SELECT FROM pg_constraint c WHERE c.conindid = i.indexrelid)
UNION ALL
-- the indexes of primary keys and unique constraints, through their constraints
SELECT format('ALTER TABLE %s DROP CONSTRAINT %I', c.conrelid::regclass, c.conname),
       format('ALTER TABLE %s ADD CONSTRAINT %I %s', c.conrelid::regclass, c.conname, pg_get_constraintdef(c.oid))
FROM pg_constraint c
WHERE c.conrelid = ANY ('{payments, events, webhook_deliveries, webhook_attempts, settlements, outbox}'::regclass[])
  AND c.contype IN ('p', 'u')
  AND NOT EXISTS (SELECT FROM pg_constraint f WHERE f.contype = 'f' AND f.conindid = c.conindid);
DO $$
DECLARE step record;
BEGIN
  FOR step IN SELECT drop_it FROM scale_indexes LOOP
    EXECUTE step.drop_it;
  END LOOP;
END $$;

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

-- The body is the text json_build_object writes for this object, filled in by format(): a third of
-- the cost (json_build_object looks up its arguments' types on every row), and no value here needs escaping.
INSERT INTO events (id, merchant_id, livemode, type, payment_id, body, created_at, delivery_status,
                    attempt_count, last_attempt_at)
SELECT 'evt_scale' || lpad(g::text, 16, '0'), merchant_id, true, 'payment.completed', id,
       format('{"id" : "%s", "type" : "payment.completed", "createdAt" : "%s", '
              '"data" : {"paymentId" : "%s", "orderId" : "order-%s", "amount" : %s, "currency" : "KRW", '
              '"completedAt" : "%2$s"}}',
              'evt_scale' || lpad(g::text, 16, '0'),
              to_char((created_at + interval '1 minute') AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
              id, g, 1000 + (g % 97) * 100),
       created_at + interval '1 minute', 'succeeded', 1, created_at + interval '1 minute'
FROM scale_payments WHERE status = 'completed';

-- Each merchant's one endpoint (we_scale…, its merchant's number) took every event, delivered at once.
INSERT INTO webhook_deliveries (event_id, endpoint_id, merchant_id, livemode, status, created_at)
SELECT 'evt_scale' || lpad(g::text, 16, '0'), 'we_' || substr(merchant_id, 5), merchant_id, true, 'succeeded',
       created_at + interval '1 minute'
FROM scale_payments WHERE status = 'completed';

INSERT INTO webhook_attempts (id, event_id, endpoint_id, number, url, started_at, duration_ms, response_status)
SELECT 'att_scale' || lpad(g::text, 16, '0'), 'evt_scale' || lpad(g::text, 16, '0'), 'we_' || substr(merchant_id, 5),
       1, 'https://shop.example/webhooks', created_at + interval '1 minute', 25, 200
FROM scale_payments WHERE status = 'completed';

INSERT INTO settlements (payment_id, merchant_id, livemode, order_id, gross_amount, fee_bps, fee_amount,
                         vat_amount, net_amount, sales_date, payout_date, completed_at)
SELECT id, merchant_id, true, 'order-' || g, 10000, 250, 250, 25, 9725,
       (created_at AT TIME ZONE 'Asia/Seoul')::date, (created_at AT TIME ZONE 'Asia/Seoul')::date + 2,
       created_at + interval '1 minute'
FROM scale_payments WHERE status = 'completed';

INSERT INTO outbox (routing_key, message_type, payload, created_at, published_at)
SELECT 'webhook.deliver', 'webhook.delivery-requested.v2', '{}', created_at, created_at + interval '1 second'
FROM scale_payments WHERE status = 'completed';

-- The dropped indexes and constraints again, as they were: each index built by one sort of its table.
DO $$
DECLARE step record;
BEGIN
  FOR step IN SELECT build_it FROM scale_indexes LOOP
    EXECUTE step.build_it;
  END LOOP;
END $$;
