import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { inTransaction, sqlRows } from '@payhook/persistence';
import { DataSource } from 'typeorm';

/** 5 wrong passwords for one email within 15 minutes lock that email for 15 minutes. */
export const MAX_FAILURES = 5;
export const FAILURE_WINDOW_MINUTES = 15;
export const LOCKOUT_MINUTES = 15;

export type AttemptClaim = { kind: 'claimed' } | { kind: 'locked'; until: Date };

/**
 * Login attempts per email, counted in Postgres so that the limit holds across API instances.
 * An attempt is written as a failure before the password is checked and removed when it succeeds;
 * with the per-email advisory lock, parallel guesses cannot slip past the count.
 */
@Injectable()
export class ConsoleLoginFailuresRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  claimAttempt(email: string): Promise<AttemptClaim> {
    return inTransaction(this.db, async (sql) => {
      await sql(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [`console-login:${email}`]);
      // The lock starts at the failure that completed 5 within 15 minutes (a sliding window).
      const [lock] = await sql<{ until: Date | null }>(
        `SELECT max(failed_at) + make_interval(mins => $3) AS until
         FROM (SELECT failed_at,
                      count(*) OVER (ORDER BY failed_at
                                     RANGE BETWEEN make_interval(mins => $2) PRECEDING AND CURRENT ROW) AS failures
               FROM console_login_failures
               WHERE email = $1 AND failed_at > now() - make_interval(mins => $2::int + $3::int)) recent
         WHERE failures >= $4
         HAVING max(failed_at) + make_interval(mins => $3) > now()`,
        [email, FAILURE_WINDOW_MINUTES, LOCKOUT_MINUTES, MAX_FAILURES],
      );
      if (lock?.until) return { kind: 'locked', until: lock.until };
      await sql(`INSERT INTO console_login_failures (email) VALUES ($1)`, [email]);
      return { kind: 'claimed' };
    });
  }

  /** A correct password clears the email's count, the attempt just claimed included. */
  async clear(email: string): Promise<void> {
    await sqlRows(this.db, `DELETE FROM console_login_failures WHERE email = $1`, [email]);
  }

  /** Rows older than any window or lockout can matter are dropped. */
  async purgeOld(): Promise<void> {
    await sqlRows(this.db, `DELETE FROM console_login_failures WHERE failed_at < now() - make_interval(mins => $1)`, [
      2 * (FAILURE_WINDOW_MINUTES + LOCKOUT_MINUTES),
    ]);
  }
}
