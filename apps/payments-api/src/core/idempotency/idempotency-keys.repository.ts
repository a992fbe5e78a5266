import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { sqlRows } from '@payhook/persistence';
import { DataSource } from 'typeorm';

export interface StoredResponse {
  fingerprint: string;
  status: number;
  body: string;
}

export interface IdempotencyScope {
  merchantId: string;
  livemode: boolean;
}

/** Reads and forgets remembered responses; claiming a key happens with the write it guards. */
@Injectable()
export class IdempotencyKeysRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async findStoredResponse(scope: IdempotencyScope, key: string): Promise<StoredResponse | null> {
    const rows = await sqlRows<{ fingerprint: string; response_status: number; response_body: string }>(
      this.db,
      `SELECT fingerprint, response_status, response_body FROM idempotency_keys
       WHERE merchant_id = $1 AND livemode = $2 AND key = $3 AND expires_at > now()`,
      [scope.merchantId, scope.livemode, key],
    );
    const [row] = rows;
    return row ? { fingerprint: row.fingerprint, status: row.response_status, body: row.response_body } : null;
  }

  /**
   * The decision for a key that was already claimed: its stored answer to replay when
   * the body's fingerprint (any of `fingerprints`, for keyed ones during a rotation) is the stored
   * one; 'body_differs' when it is not, which the caller answers with its feature's 422
   * idempotency_key_reused; null when the key expired meanwhile and may be claimed again.
   */
  async replayOrReject(
    scope: IdempotencyScope,
    key: string,
    fingerprints: string | readonly string[],
  ): Promise<StoredResponse | 'body_differs' | null> {
    const stored = await this.findStoredResponse(scope, key);
    if (stored === null) return null;
    return [fingerprints].flat().includes(stored.fingerprint) ? stored : 'body_differs';
  }

  /**
   * The unexpired keys whose fingerprint begins with `prefix` (keyedFingerprintPrefix of a key id),
   * and when the last of them expires: a range of idempotency_keys_expiry_idx (a day of keys at most).
   */
  async unexpiredWithFingerprintPrefix(prefix: string): Promise<{ count: number; until: Date | null }> {
    const [row] = await sqlRows<{ count: number; until: Date | null }>(
      this.db,
      `SELECT count(*)::int AS count, max(expires_at) AS until FROM idempotency_keys
       WHERE expires_at > now() AND starts_with(fingerprint, $1)`,
      [prefix],
    );
    return row;
  }

  /** Deletes one batch of keys past IDEMPOTENCY_TTL_HOURS; returns how many went. */
  async purgeExpired(batchSize: number): Promise<number> {
    const rows = await sqlRows(
      this.db,
      `DELETE FROM idempotency_keys WHERE ctid = ANY (ARRAY(
         SELECT ctid FROM idempotency_keys WHERE expires_at <= now() LIMIT $1 FOR UPDATE SKIP LOCKED))
       RETURNING 1`,
      [batchSize],
    );
    return rows.length;
  }
}
