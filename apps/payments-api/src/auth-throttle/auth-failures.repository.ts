import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  AUTH_FAILURE_WINDOW_MINUTES,
  clientKey,
  MAX_AUTH_FAILURES,
  type AuthAttempt,
  type AuthFailureThrottle,
  type AuthScope,
} from '@payhook/auth';
import { inTransaction, sqlRows } from '@payhook/persistence';
import { DataSource } from 'typeorm';

/**
 * Failed authentication per client (clientKey: an IPv6 /64 is one client), in Postgres so that the
 * limit holds across API instances; a per-client advisory lock makes the check and the claim one step.
 */
@Injectable()
export class AuthFailuresRepository implements AuthFailureThrottle {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  claim(scope: AuthScope, clientAddress: string): Promise<AuthAttempt> {
    const client = clientKey(clientAddress);
    return inTransaction(this.db, async (sql) => {
      await sql(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [`auth-failures:${scope}:${client}`]);
      // Throttled while MAX failures fall within the window: until the oldest of them leaves it.
      const [oldest] = await sql<{ until: Date }>(
        `SELECT failed_at + make_interval(mins => $3) AS until FROM auth_failures
         WHERE scope = $1 AND client = $2 AND failed_at > now() - make_interval(mins => $3)
         ORDER BY failed_at DESC OFFSET $4 - 1 LIMIT 1`,
        [scope, client, AUTH_FAILURE_WINDOW_MINUTES, MAX_AUTH_FAILURES],
      );
      if (oldest) return { kind: 'throttled', until: oldest.until };
      const [claimed] = await sql<{ id: string }>(
        `INSERT INTO auth_failures (scope, client) VALUES ($1, $2) RETURNING id`,
        [scope, client],
      );
      return { kind: 'claimed', id: claimed.id };
    });
  }

  /** The credential was right: this attempt was no failure. */
  async release(attempt: { id: string }): Promise<void> {
    await sqlRows(this.db, `DELETE FROM auth_failures WHERE id = $1`, [attempt.id]);
  }

  /** Up to `batchSize` rows past any window, oldest first; returns how many went. */
  async purgeOld(batchSize: number): Promise<number> {
    const rows = await sqlRows(
      this.db,
      `DELETE FROM auth_failures WHERE id = ANY (ARRAY(
         SELECT id FROM auth_failures WHERE failed_at < now() - make_interval(mins => $1)
         ORDER BY failed_at LIMIT $2))
       RETURNING 1`,
      [2 * AUTH_FAILURE_WINDOW_MINUTES, batchSize],
    );
    return rows.length;
  }
}
