import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { sqlRows, type Sql } from '@payhook/persistence';
import { DataSource } from 'typeorm';

/** A member's TOTP secrets (sealed), the last time step taken, and recovery codes (hashed). */
@Injectable()
export class TwoStepRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async secrets(memberId: string): Promise<{ active: string | null; pending: string | null; lastStep: number | null }> {
    const [row] = await sqlRows<{
      totp_secret: string | null;
      totp_pending_secret: string | null;
      totp_last_step: string | null;
    }>(this.db, `SELECT totp_secret, totp_pending_secret, totp_last_step FROM merchant_members WHERE id = $1`, [
      memberId,
    ]);
    return {
      active: row?.totp_secret ?? null,
      pending: row?.totp_pending_secret ?? null,
      lastStep: row?.totp_last_step == null ? null : Number(row.totp_last_step),
    };
  }

  async setPending(memberId: string, sealed: string): Promise<void> {
    await sqlRows(this.db, `UPDATE merchant_members SET totp_pending_secret = $2 WHERE id = $1`, [memberId, sealed]);
  }

  /**
   * Takes time step `step` for the member: false when it (or a later one) was taken already, so a
   * code is accepted once, also when two requests bring it at the same moment. `sql`: a
   * transaction to take it in, or null for a statement of its own.
   */
  async takeStep(sql: Sql | null, memberId: string, step: number): Promise<boolean> {
    const run: Sql = sql ?? ((text, params) => sqlRows(this.db, text, params));
    const rows = await run(
      `UPDATE merchant_members SET totp_last_step = $2
       WHERE id = $1 AND (totp_last_step IS NULL OR totp_last_step < $2) RETURNING id`,
      [memberId, step],
    );
    return rows.length === 1;
  }

  /** The pending secret becomes the active one, with fresh recovery codes. */
  async activate(sql: Sql, memberId: string, codeHashes: string[]): Promise<void> {
    await sql(
      `UPDATE merchant_members SET totp_secret = totp_pending_secret, totp_pending_secret = NULL WHERE id = $1`,
      [memberId],
    );
    await sql(`DELETE FROM member_recovery_codes WHERE member_id = $1`, [memberId]);
    await sql(`INSERT INTO member_recovery_codes (member_id, code_hash) SELECT $1, unnest($2::text[])`, [
      memberId,
      codeHashes,
    ]);
  }

  async deactivate(sql: Sql, memberId: string): Promise<void> {
    await sql(
      `UPDATE merchant_members SET totp_secret = NULL, totp_pending_secret = NULL, totp_last_step = NULL WHERE id = $1`,
      [memberId],
    );
    await sql(`DELETE FROM member_recovery_codes WHERE member_id = $1`, [memberId]);
  }

  /**
   * Uses a recovery code once, stored as any of `codeHashes` (its hash under each key): of two uses
   * at once, one gets it (the second waits for the row, then finds it used).
   */
  async useRecoveryCode(memberId: string, codeHashes: string[]): Promise<boolean> {
    const rows = await sqlRows(
      this.db,
      `UPDATE member_recovery_codes SET used_at = now()
       WHERE member_id = $1 AND code_hash = ANY($2::text[]) AND used_at IS NULL RETURNING member_id`,
      [memberId, codeHashes],
    );
    return rows.length > 0;
  }

  /**
   * Replaces up to `limit` codes stored unkeyed (before codes were keyed) by `keyed(digest)`, in one
   * statement; how many it found. Each row only while it is still what was read, so instances at
   * start may run it at once (a row another one keyed is no longer unkeyed, and is not found again).
   */
  async keyUnkeyedRecoveryCodes(limit: number, keyed: (digest: string) => string): Promise<number> {
    const rows = await sqlRows<{ member_id: string; code_hash: string }>(
      this.db,
      `SELECT member_id, code_hash FROM member_recovery_codes WHERE code_hash NOT LIKE 'hmac1:%' LIMIT $1`,
      [limit],
    );
    if (rows.length === 0) return 0;
    await sqlRows(
      this.db,
      `UPDATE member_recovery_codes c SET code_hash = r.keyed
       FROM unnest($1::text[], $2::text[], $3::text[]) AS r(member_id, was, keyed)
       WHERE c.member_id = r.member_id AND c.code_hash = r.was`,
      [rows.map((row) => row.member_id), rows.map((row) => row.code_hash), rows.map((row) => keyed(row.code_hash))],
    );
    return rows.length;
  }

  async unusedRecoveryCodes(memberId: string): Promise<number> {
    const [row] = await sqlRows<{ n: number }>(
      this.db,
      `SELECT count(*)::int AS n FROM member_recovery_codes WHERE member_id = $1 AND used_at IS NULL`,
      [memberId],
    );
    return row.n;
  }
}
