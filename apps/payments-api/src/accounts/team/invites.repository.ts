import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { sqlRows, type Sql } from '@payhook/persistence';
import { DataSource } from 'typeorm';
import type { MemberRole } from './member-role';

export interface Invite {
  id: string;
  email: string;
  role: MemberRole;
  invitedBy: string;
  expiresAt: Date;
  acceptedAt: Date | null;
  revokedAt: Date | null;
  createdAt: Date;
  /** The link was shown to the inviting owner (e-mail off): accepting it proves nothing about the address. */
  linkShown: boolean;
}

interface InviteRow {
  id: string;
  merchant_id: string;
  email: string;
  role: MemberRole;
  invited_by: string;
  expires_at: Date;
  accepted_at: Date | null;
  revoked_at: Date | null;
  created_at: Date;
  link_shown: boolean;
}

const toInvite = (row: InviteRow): Invite => ({
  id: row.id,
  email: row.email,
  role: row.role,
  invitedBy: row.invited_by,
  expiresAt: row.expires_at,
  acceptedAt: row.accepted_at,
  revokedAt: row.revoked_at,
  createdAt: row.created_at,
  linkShown: row.link_shown,
});

/** One request's hold on an invite link while it hashes the password; its instant tells it apart. */
export interface InviteClaim {
  tokenHash: string;
  until: Date;
}

/** Invites to a merchant's team: only the token's SHA-256 is stored; the link is shown once. */
@Injectable()
export class InvitesRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async insert(
    sql: Sql,
    invite: {
      id: string;
      tokenHash: string;
      merchantId: string;
      email: string;
      role: MemberRole;
      invitedBy: string;
      linkShown: boolean;
    },
    validHours: number,
  ): Promise<void> {
    await sql(
      `INSERT INTO member_invites (id, token_hash, merchant_id, email, role, invited_by, link_shown, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, now() + make_interval(hours => $8))`,
      [
        invite.id,
        invite.tokenHash,
        invite.merchantId,
        invite.email,
        invite.role,
        invite.invitedBy,
        invite.linkShown,
        validHours,
      ],
    );
  }

  /**
   * An open invite under a new link (the old one stops at once), valid `validHours` again: one
   * statement, at most `maxResends` times per invite. Null when the invite is not open or was sent
   * again that often already.
   */
  async renewLink(
    sql: Sql,
    merchantId: string,
    id: string,
    renewal: { tokenHash: string; linkShown: boolean; validHours: number; maxResends: number },
  ): Promise<Invite | null> {
    const [row] = await sql<InviteRow>(
      `UPDATE member_invites
          SET token_hash = $3, link_shown = $4, expires_at = now() + make_interval(hours => $5),
              claimed_until = NULL, resends = resends + 1
       WHERE merchant_id = $1 AND id = $2 AND accepted_at IS NULL AND revoked_at IS NULL
         AND resends < $6
       RETURNING *`,
      [merchantId, id, renewal.tokenHash, renewal.linkShown, renewal.validHours, renewal.maxResends],
    );
    return row ? toInvite(row) : null;
  }

  /**
   * Invites made in the last day by the merchant, and to the address by anyone. Counted under locks of
   * both (merchant first, then address: never a cycle), held by `sql`'s transaction until the insert
   * commits, so two invites at once cannot both take the last place.
   */
  async madeToday(sql: Sql, merchantId: string, email: string): Promise<{ byMerchant: number; toAddress: number }> {
    await sql(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [`invites:merchant:${merchantId}`]);
    await sql(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [`invites:address:${email}`]);
    const [counts] = await sql<{ by_merchant: number; to_address: number }>(
      `SELECT (SELECT count(*)::int FROM member_invites
                WHERE merchant_id = $1 AND created_at > now() - interval '1 day') AS by_merchant,
              (SELECT count(*)::int FROM member_invites
                WHERE email = $2 AND created_at > now() - interval '1 day') AS to_address`,
      [merchantId, email],
    );
    return { byMerchant: counts.by_merchant, toAddress: counts.to_address };
  }

  /** The merchant's latest invites, newest first. */
  async list(merchantId: string, limit = 50): Promise<Invite[]> {
    const rows = await sqlRows<InviteRow>(
      this.db,
      `SELECT * FROM member_invites WHERE merchant_id = $1 ORDER BY created_at DESC, id LIMIT $2`,
      [merchantId, limit],
    );
    return rows.map(toInvite);
  }

  /** An invite that can still be used, with its merchant's name, for the set-password page. */
  async findUsable(tokenHash: string): Promise<(Invite & { merchantId: string; merchantName: string }) | null> {
    const [row] = await sqlRows<InviteRow & { merchant_name: string }>(
      this.db,
      `SELECT i.*, m.name AS merchant_name FROM member_invites i JOIN merchants m ON m.id = i.merchant_id
       WHERE i.token_hash = $1 AND i.accepted_at IS NULL AND i.revoked_at IS NULL AND i.expires_at > now()`,
      [tokenHash],
    );
    return row ? { ...toInvite(row), merchantId: row.merchant_id, merchantName: row.merchant_name } : null;
  }

  /**
   * Claims a usable invite for `seconds`, before its password is hashed: one statement, so of many
   * requests at once only one gets it; the others find it claimed until the claim lapses.
   */
  async claim(tokenHash: string, seconds: number): Promise<InviteClaim | null> {
    const [row] = await sqlRows<{ claimed_until: Date }>(
      this.db,
      `UPDATE member_invites SET claimed_until = date_trunc('milliseconds', clock_timestamp() + make_interval(secs => $2))
       WHERE token_hash = $1 AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > now()
         AND (claimed_until IS NULL OR claimed_until <= now())
       RETURNING claimed_until`,
      [tokenHash, seconds],
    );
    return row ? { tokenHash, until: row.claimed_until } : null;
  }

  /**
   * The claimant could not finish (its hash refused for load, say): the link is usable again at once,
   * unless the claim lapsed and another request holds the link now (its claim is another instant;
   * whole milliseconds, as a Date holds them).
   */
  async releaseClaim(claim: InviteClaim): Promise<void> {
    await sqlRows(
      this.db,
      `UPDATE member_invites SET claimed_until = NULL WHERE token_hash = $1 AND claimed_until = $2`,
      [claim.tokenHash, claim.until],
    );
  }

  /** Uses the invite: one statement, so of two uses at once only one gets it. */
  async accept(sql: Sql, tokenHash: string): Promise<(Invite & { merchantId: string }) | null> {
    const [row] = await sql<InviteRow>(
      `UPDATE member_invites SET accepted_at = now()
       WHERE token_hash = $1 AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > now()
       RETURNING *`,
      [tokenHash],
    );
    return row ? { ...toInvite(row), merchantId: row.merchant_id } : null;
  }

  /** Open invites made by a member who is leaving or no longer an owner: they end with the member's powers. */
  async revokeMadeBy(sql: Sql, merchantId: string, email: string): Promise<void> {
    await sql(
      `UPDATE member_invites SET revoked_at = now()
       WHERE merchant_id = $1 AND invited_by = $2 AND accepted_at IS NULL AND revoked_at IS NULL`,
      [merchantId, email],
    );
  }

  async revoke(sql: Sql, merchantId: string, id: string): Promise<Invite | null> {
    const [row] = await sql<InviteRow>(
      `UPDATE member_invites SET revoked_at = now()
       WHERE merchant_id = $1 AND id = $2 AND accepted_at IS NULL AND revoked_at IS NULL RETURNING *`,
      [merchantId, id],
    );
    return row ? toInvite(row) : null;
  }
}
