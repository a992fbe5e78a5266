import type { Locale } from '../../platform/i18n/locale';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { MerchantStatus } from '@payhook/contracts';
import { sqlRows, type Sql } from '@payhook/persistence';
import { DataSource } from 'typeorm';
import type { MemberRole } from '../team';
import type { ConsoleSession } from './console-session';

interface SessionRow {
  id: string;
  csrf_token: string;
  verified: boolean;
  merchant_id: string;
  name: string;
  status: MerchantStatus;
  time_zone: string;
  member_id: string;
  email: string;
  role: MemberRole;
  two_step: boolean;
  locale: Locale | null;
}

@Injectable()
export class ConsoleSessionsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * `verified`: false while the member's second step is still owed. Made only while the member's
   * password is still the one the login checked (`passwordHash`): a reset or change that committed
   * during the check, ending every session, is not outlived by this one. False when it was not made.
   */
  async insert(session: {
    id: string;
    merchantId: string;
    memberId: string;
    csrfToken: string;
    ttlHours: number;
    verified: boolean;
    passwordHash: string;
  }): Promise<boolean> {
    const rows = await sqlRows(
      this.db,
      `INSERT INTO console_sessions (id, merchant_id, member_id, csrf_token, expires_at, verified_at)
       SELECT $1, $2, $3, $4, now() + make_interval(hours => $5), CASE WHEN $6 THEN now() END
       FROM merchant_members WHERE id = $3 AND password_hash = $7
       -- Waits for a password change in flight to commit, then checks the hash it set.
       FOR SHARE
       RETURNING 1`,
      [
        session.id,
        session.merchantId,
        session.memberId,
        session.csrfToken,
        session.ttlHours,
        session.verified,
        session.passwordHash,
      ],
    );
    return rows.length === 1;
  }

  /**
   * Claims one check of a code for the session's second step, before the code is checked: how many
   * the session has had, this one included; null when it is gone, expired or already verified.
   */
  async claimSecondStepAttempt(id: string): Promise<number | null> {
    const [row] = await sqlRows<{ attempts: number }>(
      this.db,
      `UPDATE console_sessions SET second_step_failures = second_step_failures + 1
       WHERE id = $1 AND verified_at IS NULL AND expires_at > now()
       RETURNING second_step_failures AS attempts`,
      [id],
    );
    return row?.attempts ?? null;
  }

  /**
   * The second step passed: the session opens the console from now on, under a new id (a new token).
   * False when it was verified or ended meanwhile.
   */
  async markVerified(id: string, newId: string): Promise<boolean> {
    const rows = await sqlRows(
      this.db,
      `UPDATE console_sessions SET verified_at = now(), id = $2 WHERE id = $1 AND verified_at IS NULL RETURNING 1`,
      [id, newId],
    );
    return rows.length === 1;
  }

  /**
   * An unexpired session with its merchant and member as they are now (a new time zone or role
   * counts at once), marked as seen. One statement: the console pays one round trip per page for its session.
   */
  async findActive(id: string): Promise<ConsoleSession | null> {
    const rows = await sqlRows<SessionRow>(
      this.db,
      `WITH session AS (
         UPDATE console_sessions SET last_seen_at = now()
         WHERE id = $1 AND expires_at > now()
         RETURNING id, merchant_id, member_id, csrf_token, verified_at IS NOT NULL AS verified
       )
       SELECT session.id, session.csrf_token, session.verified, m.id AS merchant_id, m.name, m.status, m.time_zone,
              member.id AS member_id, member.email, member.role, member.locale,
              member.totp_secret IS NOT NULL AS two_step
       FROM session JOIN merchants m ON m.id = session.merchant_id
       JOIN merchant_members member ON member.id = session.member_id`,
      [id],
    );
    const [row] = rows;
    if (!row) return null;
    return {
      id: row.id,
      csrfToken: row.csrf_token,
      merchant: { id: row.merchant_id, name: row.name, status: row.status, timeZone: row.time_zone },
      member: { id: row.member_id, email: row.email, role: row.role, twoStep: row.two_step, locale: row.locale },
      verified: row.verified,
    };
  }

  async delete(id: string): Promise<void> {
    await sqlRows(this.db, `DELETE FROM console_sessions WHERE id = $1`, [id]);
  }

  /** Signs a member out everywhere but here (after turning two-step login on or off). */
  async deleteOthersOf(memberId: string, keep: string): Promise<void> {
    await sqlRows(this.db, `DELETE FROM console_sessions WHERE member_id = $1 AND id <> $2`, [memberId, keep]);
  }

  /** Signs a member out everywhere, in `sql`'s transaction (a password set by a reset link). */
  async deleteAllOf(sql: Sql, memberId: string): Promise<void> {
    await sql(`DELETE FROM console_sessions WHERE member_id = $1`, [memberId]);
  }

  async purgeExpired(): Promise<void> {
    await sqlRows(this.db, `DELETE FROM console_sessions WHERE expires_at <= now()`);
  }
}
