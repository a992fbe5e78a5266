import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  AUTH_FAILURE_LIMITS,
  clientKey,
  type AuthAttempt,
  type AuthFailureThrottle,
  type AuthScope,
  type CheckedAttempt,
} from '@payhook/auth';
import { inTransaction, sqlRows, type Sql } from '@payhook/persistence';
import { DataSource } from 'typeorm';

/**
 * Failed authentication per client (clientKey: an IPv6 /64 is one client) or per member, in Postgres
 * so that the limit holds across API instances; an advisory lock per subject makes the check and the
 * claim one step.
 */
@Injectable()
export class AuthFailuresRepository implements AuthFailureThrottle {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  claim(scope: AuthScope, subject: string): Promise<AuthAttempt> {
    return this.underLock(scope, subject, async (sql, client, recent) => {
      const [claimed] = await sql<{ id: string }>(
        `INSERT INTO auth_failures (scope, client) VALUES ($1, $2) RETURNING id`,
        [scope, client],
      );
      return { kind: 'claimed', id: claimed.id, failures: recent + 1 };
    });
  }

  check(scope: AuthScope, subject: string, isRight: () => boolean): Promise<CheckedAttempt> {
    return this.underLock(scope, subject, async (sql, client) => {
      if (isRight()) return { kind: 'right' };
      await sql(`INSERT INTO auth_failures (scope, client) VALUES ($1, $2)`, [scope, client]);
      return { kind: 'wrong' };
    });
  }

  /**
   * `then` with the subject's advisory lock held and its failures in the window counted, unless it
   * is throttled: while `max` failures fall within the window, until the oldest of them leaves it.
   */
  private underLock<T>(
    scope: AuthScope,
    subject: string,
    then: (sql: Sql, client: string, recent: number) => Promise<T>,
  ): Promise<T | { kind: 'throttled'; until: Date }> {
    const client = scope === 'second-step' ? subject : clientKey(subject);
    const { max, windowMinutes } = AUTH_FAILURE_LIMITS[scope];
    return inTransaction(this.db, async (sql) => {
      await sql(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [`auth-failures:${scope}:${client}`]);
      const recent = await sql<{ failed_at: Date }>(
        `SELECT failed_at FROM auth_failures
         WHERE scope = $1 AND client = $2 AND failed_at > now() - make_interval(mins => $3)
         ORDER BY failed_at DESC LIMIT $4`,
        [scope, client, windowMinutes, max],
      );
      if (recent.length === max) {
        return { kind: 'throttled', until: new Date(recent[max - 1].failed_at.getTime() + windowMinutes * 60_000) };
      }
      return then(sql, client, recent.length);
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
      [2 * Math.max(...Object.values(AUTH_FAILURE_LIMITS).map((limit) => limit.windowMinutes)), batchSize],
    );
    return rows.length;
  }
}
