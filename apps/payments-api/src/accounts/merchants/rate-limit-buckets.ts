import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { RateLimitStore } from '@payhook/auth';
import { sqlRows } from '@payhook/persistence';
import { DataSource } from 'typeorm';

/**
 * Seconds since the bucket's last refill, by the database's clock (one reading per statement, the
 * row's new `refilled_at`): every instance reads the same clock.
 */
const ELAPSED = `GREATEST(0, extract(epoch FROM excluded.refilled_at - b.refilled_at))`;
/** What the bucket holds now: the old tokens plus the refill, up to twice the rate. */
const REFILLED = `LEAST(2 * $3::float8, b.tokens + ${ELAPSED} * $3::float8)`;

/**
 * Each key's token bucket in `rate_limit_buckets` (ADR 0017), refilled and taken from in one
 * statement under the row's lock, so instances taking at once each get what is really there. The
 * table is unlogged: no WAL, nothing to flush at commit, and after a crash every bucket starts full,
 * as an in-memory one did after a restart.
 */
@Injectable()
export class RateLimitBuckets extends RateLimitStore {
  constructor(@InjectDataSource() private readonly db: DataSource) {
    super();
  }

  async take(keyId: string, wanted: number, perSecond: number): Promise<{ granted: number; left: number }> {
    const [row] = await sqlRows<{ granted: number; tokens: number }>(
      this.db,
      `INSERT INTO rate_limit_buckets AS b (key_id, tokens, granted, refilled_at)
       VALUES ($1, 2 * $3::float8 - LEAST($2, floor(2 * $3::float8)), LEAST($2, floor(2 * $3::float8)), clock_timestamp())
       ON CONFLICT (key_id) DO UPDATE SET
         granted = LEAST($2, floor(${REFILLED})),
         tokens = ${REFILLED} - LEAST($2, floor(${REFILLED})),
         refilled_at = GREATEST(b.refilled_at, excluded.refilled_at)
       RETURNING granted, tokens`,
      [keyId, wanted, perSecond],
    );
    return { granted: Number(row.granted), left: Number(row.tokens) };
  }
}
