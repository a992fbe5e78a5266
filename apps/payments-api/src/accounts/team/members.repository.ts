import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { sqlRows, type Sql } from '@payhook/persistence';
import { DataSource } from 'typeorm';
import type { Locale } from '../../platform/i18n/locale';
import type { MemberRole } from './member-role';

export interface Member {
  id: string;
  merchantId: string;
  email: string;
  role: MemberRole;
  twoStep: boolean;
  /** The language the member chose for the console and its e-mails; null: the browser's (Korean in e-mails). */
  locale: Locale | null;
  createdAt: Date;
}

/** What a login needs: the member, its password hash, its sealed TOTP secret and whose team it is. */
export interface MemberLogin extends Member {
  passwordHash: string;
  totpSecret: string | null;
  merchantName: string;
  /** Its address was proven (approval, an e-mailed invite): a reset link sets it. */
  addressProven: boolean;
}

/**
 * Logins one address may have (one per merchant): a login checks the password against each, so the
 * work a login costs stays bounded.
 */
export const MAX_LOGINS_PER_ADDRESS = 10;

interface MemberRow {
  id: string;
  merchant_id: string;
  email: string;
  role: MemberRole;
  totp_secret: string | null;
  locale: Locale | null;
  created_at: Date;
  password_hash?: string;
}

const COLUMNS = 'id, merchant_id, email, role, totp_secret, locale, created_at';
const PREFIXED = 'mm.id, mm.merchant_id, mm.email, mm.role, mm.totp_secret, mm.locale, mm.created_at';

function toMember(row: MemberRow): Member {
  return {
    id: row.id,
    merchantId: row.merchant_id,
    email: row.email,
    role: row.role,
    twoStep: row.totp_secret !== null,
    locale: row.locale,
    createdAt: row.created_at,
  };
}

/**
 * Locks the address's logins for `sql`'s transaction: what changes several of them at once (a
 * reset) and what changes one (a password change, a new login) are serialised, never a cycle.
 */
export async function lockAddress(sql: Sql, email: string): Promise<void> {
  await sql(`SELECT pg_advisory_xact_lock(hashtextextended('payhook login ' || $1, 0))`, [email]);
}

/**
 * Locks the address for `sql`'s transaction and counts its logins: two memberships made at once (an
 * approval, an invite accepted) cannot both take the last of MAX_LOGINS_PER_ADDRESS.
 */
export async function countLoginsLocked(sql: Sql, email: string): Promise<number> {
  await lockAddress(sql, email);
  const [row] = await sql<{ n: number }>(`SELECT count(*)::int AS n FROM merchant_members WHERE email = $1`, [email]);
  return row.n;
}

type LoginRow = MemberRow & { password_hash: string; merchant_name: string; address_proven: boolean };

function toLogin(row: LoginRow): MemberLogin {
  return {
    ...toMember(row),
    passwordHash: row.password_hash,
    totpSecret: row.totp_secret,
    merchantName: row.merchant_name,
    addressProven: row.address_proven,
  };
}

/** A merchant's team: its members, each with one role. Emails are stored lower-case. */
@Injectable()
export class MembersRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * The logins of an address, one per merchant it is a member of, oldest first, with each merchant's
   * name (the choice after sign-in names them). At most MAX_LOGINS_PER_ADDRESS exist.
   */
  async findLogins(email: string): Promise<MemberLogin[]> {
    const rows = await sqlRows<LoginRow>(
      this.db,
      `SELECT ${PREFIXED}, mm.password_hash, mm.address_proven, m.name AS merchant_name
         FROM merchant_members mm JOIN merchants m ON m.id = mm.merchant_id
        WHERE mm.email = $1 ORDER BY mm.created_at, mm.id LIMIT $2`,
      [email, MAX_LOGINS_PER_ADDRESS],
    );
    return rows.map(toLogin);
  }

  /** One member's login (the password check before a change of the signed-in member). */
  async findLoginById(id: string): Promise<MemberLogin | null> {
    const [row] = await sqlRows<LoginRow>(
      this.db,
      `SELECT ${PREFIXED}, mm.password_hash, mm.address_proven, m.name AS merchant_name
         FROM merchant_members mm JOIN merchants m ON m.id = mm.merchant_id WHERE mm.id = $1`,
      [id],
    );
    return row ? toLogin(row) : null;
  }

  /** See countLoginsLocked. */
  lockAddressAndCount(sql: Sql, email: string): Promise<number> {
    return countLoginsLocked(sql, email);
  }

  /**
   * The address's logins that its owner proved (approval, an e-mailed invite), within `sql`'s
   * transaction: what a reset link, which proves the address, sets.
   */
  async provenOfAddress(sql: Sql, email: string): Promise<Member[]> {
    const rows = await sql<MemberRow>(
      `SELECT ${COLUMNS} FROM merchant_members WHERE email = $1 AND address_proven ORDER BY created_at, id LIMIT $2`,
      [email, MAX_LOGINS_PER_ADDRESS],
    );
    return rows.map(toMember);
  }

  /** The e-mail addresses of the team's members with these ids, by id. */
  async emailsById(merchantId: string, ids: string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await sqlRows<{ id: string; email: string }>(
      this.db,
      `SELECT id, email FROM merchant_members WHERE merchant_id = $1 AND id = ANY($2::text[])`,
      [merchantId, ids],
    );
    return new Map(rows.map((row) => [row.id, row.email]));
  }

  async find(merchantId: string, id: string): Promise<Member | null> {
    const [row] = await sqlRows<MemberRow>(
      this.db,
      `SELECT ${COLUMNS} FROM merchant_members WHERE merchant_id = $1 AND id = $2`,
      [merchantId, id],
    );
    return row ? toMember(row) : null;
  }

  /** The merchant's members, oldest first (a team is tens of people, not thousands). */
  async list(merchantId: string): Promise<Member[]> {
    const rows = await sqlRows<MemberRow>(
      this.db,
      `SELECT ${COLUMNS} FROM merchant_members WHERE merchant_id = $1 ORDER BY created_at, id LIMIT 500`,
      [merchantId],
    );
    return rows.map(toMember);
  }

  /** `addressProven`: the invite's link went only to the address (opening it proved the address). */
  async insert(
    sql: Sql,
    member: {
      id: string;
      merchantId: string;
      email: string;
      passwordHash: string;
      role: MemberRole;
      addressProven: boolean;
    },
  ) {
    await sql(
      `INSERT INTO merchant_members (id, merchant_id, email, password_hash, role, address_proven)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [member.id, member.merchantId, member.email, member.passwordHash, member.role, member.addressProven],
    );
  }

  /**
   * Locks the merchant's team for this transaction: two owners changing each other at once are
   * serialised, so the last-owner rule sees the other's change. An advisory lock, so nothing else
   * that touches the merchant's row (a payment's foreign key) waits for it.
   */
  async lockTeam(sql: Sql, merchantId: string): Promise<void> {
    await sql(`SELECT pg_advisory_xact_lock(hashtextextended('payhook team ' || $1, 0))`, [merchantId]);
  }

  /** One member, read within `sql`'s transaction (after lockTeam). */
  async findIn(sql: Sql, merchantId: string, id: string): Promise<Member | null> {
    const [row] = await sql<MemberRow>(`SELECT ${COLUMNS} FROM merchant_members WHERE merchant_id = $1 AND id = $2`, [
      merchantId,
      id,
    ]);
    return row ? toMember(row) : null;
  }

  /** The team's member with this address, or null. */
  async findByAddress(merchantId: string, email: string): Promise<Member | null> {
    const [row] = await sqlRows<MemberRow>(
      this.db,
      `SELECT ${COLUMNS} FROM merchant_members WHERE email = $1 AND merchant_id = $2`,
      [email, merchantId],
    );
    return row ? toMember(row) : null;
  }

  /** Owners other than `memberId`; call after lockTeam. */
  async otherOwners(sql: Sql, merchantId: string, memberId: string): Promise<number> {
    const [row] = await sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM merchant_members WHERE merchant_id = $1 AND role = 'owner' AND id <> $2`,
      [merchantId, memberId],
    );
    return row.n;
  }

  /**
   * A new password, changed or reset, under the address's lock (taken first, as a reset takes it:
   * never a cycle). A proven login's new password uses up the address's open reset links (a link
   * sent before must not undo the change); an unproven one's cannot touch them. Choices of merchant
   * still open for the login end: they keep the old hash.
   */
  async setPasswordHash(sql: Sql, merchantId: string, id: string, passwordHash: string): Promise<void> {
    const [member] = await sql<{ email: string }>(
      `SELECT email FROM merchant_members WHERE merchant_id = $1 AND id = $2`,
      [merchantId, id],
    );
    if (!member) return;
    await lockAddress(sql, member.email);
    const [changed] = await sql<{ address_proven: boolean }>(
      `UPDATE merchant_members SET password_hash = $3 WHERE merchant_id = $1 AND id = $2 RETURNING address_proven`,
      [merchantId, id, passwordHash],
    );
    await sql(`DELETE FROM console_login_choices WHERE member_id = $1`, [id]);
    if (!changed?.address_proven) return;
    await sql(
      `UPDATE password_reset_requests SET used_at = now()
       WHERE email = $1 AND token_hash IS NOT NULL AND used_at IS NULL`,
      [member.email],
    );
  }

  /** The member's own language for the console and its e-mails; null goes back to the browser's. */
  async setLocale(id: string, locale: Locale | null): Promise<void> {
    await sqlRows(this.db, `UPDATE merchant_members SET locale = $2 WHERE id = $1`, [id, locale]);
  }

  async setRole(sql: Sql, merchantId: string, id: string, role: MemberRole): Promise<void> {
    await sql(`UPDATE merchant_members SET role = $3 WHERE merchant_id = $1 AND id = $2`, [merchantId, id, role]);
  }

  /** Removes the member; its sessions go with it (ON DELETE CASCADE), so it is signed out at once. */
  async delete(sql: Sql, merchantId: string, id: string): Promise<void> {
    await sql(`DELETE FROM merchant_members WHERE merchant_id = $1 AND id = $2`, [merchantId, id]);
  }
}
