// No imports: bench/run.mjs replays this statement from the build as the database ceiling. So its
// claim spells out the ON CONFLICT rule that ledger/idempotency-claims.ts holds for every other claim;
// the idempotency and refunds e2e specs hold each to those rules.

/**
 * Claims the idempotency key of each create in $1 (a JSON array, one record per create) and inserts
 * the payments whose key it got; `RETURNING id` names them (ADR 0001, ADR 0013).
 */
export const CREATE_PAYMENTS_STATEMENT = `
WITH input AS (
  SELECT * FROM json_to_recordset($1::json) AS t(
    id text, merchant_id text, livemode boolean, key text, fingerprint text, response_body text,
    ttl_hours integer, order_id text, customer_id text, amount bigint, currency text, return_url text,
    pay_suffix text, expires_at timestamptz, created_at timestamptz)
), claim AS (
  INSERT INTO idempotency_keys AS k
    (merchant_id, livemode, key, fingerprint, response_status, response_body, created_at, expires_at)
  SELECT merchant_id, livemode, key, fingerprint, 201, response_body, now(),
         now() + make_interval(hours => ttl_hours)
  FROM input
  ON CONFLICT (merchant_id, livemode, key) DO UPDATE
    SET fingerprint = EXCLUDED.fingerprint, response_status = EXCLUDED.response_status,
        response_body = EXCLUDED.response_body, created_at = EXCLUDED.created_at,
        expires_at = EXCLUDED.expires_at
    WHERE k.expires_at <= now()
  RETURNING merchant_id, livemode, key
)
INSERT INTO payments (id, merchant_id, livemode, order_id, customer_id, amount, currency, status,
                      return_url, pay_suffix, expires_at, created_at)
SELECT i.id, i.merchant_id, i.livemode, i.order_id, i.customer_id, i.amount, i.currency, 'pending',
       i.return_url, i.pay_suffix, i.expires_at, i.created_at
FROM input i JOIN claim c USING (merchant_id, livemode, key)
RETURNING id
`;
