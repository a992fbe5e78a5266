import type { MerchantScope } from '@payhook/auth';
import { jsonRecords, type Sql } from '@payhook/persistence';

/** A key claimed together with the answer it will replay: the write it guards commits with it or not at all. */
export interface IdempotencyClaim {
  key: string;
  fingerprint: string;
  status: number;
  body: string;
  ttlHours: number;
}

/** The columns a claim inserts, in order. */
const IDEMPOTENCY_CLAIM_COLUMNS = `(merchant_id, livemode, key, fingerprint, response_status, response_body, created_at, expires_at)`;

/**
 * How a claim meets a key already stored (ADR 0001): it takes the key only when the stored one has
 * expired, so a claim that returns no row found the key held. A key still being claimed by a running
 * transaction makes the claim wait on the unique index until that one ends. Every claim of a money
 * write uses it (the create statement keeps a copy: bench/run.mjs replays that file without imports).
 */
const IDEMPOTENCY_CLAIM_CONFLICT = `ON CONFLICT (merchant_id, livemode, key) DO UPDATE
  SET fingerprint = EXCLUDED.fingerprint, response_status = EXCLUDED.response_status,
      response_body = EXCLUDED.response_body, created_at = EXCLUDED.created_at,
      expires_at = EXCLUDED.expires_at
  WHERE k.expires_at <= now()`;

/** Idempotency keys claimed inside a ledger transaction, with the write they guard. */
export class IdempotencyClaims {
  constructor(private readonly sql: Sql) {}

  /** False when the key is held and not expired: the caller rolls its writes back and replays. */
  async claim(scope: MerchantScope, claim: IdempotencyClaim): Promise<boolean> {
    const [claimed] = await this.claimAll([{ scope, claim }]);
    return claimed;
  }

  /** Several distinct keys in one statement: for each, whether it was claimed (false: held and not expired). */
  async claimAll(claims: readonly { scope: MerchantScope; claim: IdempotencyClaim }[]): Promise<boolean[]> {
    const rows = await this.sql<{ merchant_id: string; livemode: boolean; key: string }>(
      `INSERT INTO idempotency_keys AS k ${IDEMPOTENCY_CLAIM_COLUMNS}
       SELECT "merchantId", livemode, key, fingerprint, status, body, now(), now() + make_interval(hours => "ttlHours")
       FROM json_to_recordset($1::json)
         AS i ("merchantId" text, livemode boolean, key text, fingerprint text, status int, body text, "ttlHours" int)
       ${IDEMPOTENCY_CLAIM_CONFLICT}
       RETURNING k.merchant_id, k.livemode, k.key`,
      [
        jsonRecords(
          claims.map(({ scope, claim }) => ({ merchantId: scope.merchantId, livemode: scope.livemode, ...claim })),
        ),
      ],
      'claim-idempotency-keys',
    );
    const claimed = new Set(rows.map((row) => keyOf(row.merchant_id, row.livemode, row.key)));
    return claims.map(({ scope, claim }) => claimed.has(keyOf(scope.merchantId, scope.livemode, claim.key)));
  }
}

const keyOf = (merchantId: string, livemode: boolean, key: string) =>
  `${merchantId}\u0000${String(livemode)}\u0000${key}`;
