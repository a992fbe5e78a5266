import type { Sql } from '@payhook/persistence';
import type { IdempotencyScope } from './idempotency-keys.repository';

/** A key claimed together with the answer it will replay: the write it guards commits with it or not at all. */
export interface IdempotencyClaim {
  scope: IdempotencyScope;
  key: string;
  fingerprint: string;
  status: number;
  body: string;
  ttlHours: number;
}

/**
 * Claims `claim.key` with its stored answer, in the transaction of the write it guards (ADR 0001):
 * false when the key is held and not expired. A key still being claimed by a running transaction
 * makes this wait on the unique index until that one ends. The create path does the same in its
 * batched statement (create-payments.statement.ts, which bench/run.mjs replays without imports).
 */
export async function claimIdempotencyKey(sql: Sql, claim: IdempotencyClaim): Promise<boolean> {
  const rows = await sql(
    `INSERT INTO idempotency_keys AS k
       (merchant_id, livemode, key, fingerprint, response_status, response_body, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, now(), now() + make_interval(hours => $7))
     ON CONFLICT (merchant_id, livemode, key) DO UPDATE
       SET fingerprint = EXCLUDED.fingerprint, response_status = EXCLUDED.response_status,
           response_body = EXCLUDED.response_body, created_at = EXCLUDED.created_at,
           expires_at = EXCLUDED.expires_at
       WHERE k.expires_at <= now()
     RETURNING 1`,
    [
      claim.scope.merchantId,
      claim.scope.livemode,
      claim.key,
      claim.fingerprint,
      claim.status,
      claim.body,
      claim.ttlHours,
    ],
  );
  return rows.length === 1;
}
