import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { inTransaction, sqlRows, type Sql } from '@payhook/persistence';
import { DataSource } from 'typeorm';

/** A link to send for the request's address: its token's SHA-256, how long it works. */
export interface ResetLink {
  tokenHash: string;
  validMinutes: number;
}

/** `throttled`: the client asked too often, nothing was recorded; `link`: absent when none is to be sent. */
export type RecordedRequest = { kind: 'throttled'; until: Date } | { kind: 'recorded'; link: ResetLink | undefined };

/** One request's hold on a reset link while it hashes the new password; its instant tells it apart. */
export interface ResetClaim {
  tokenHash: string;
  until: Date;
}

/**
 * Requests for a password reset link (console login page). Every request is a row, whether the
 * address had a login or not, so that requests count per client and per address alike; a row that
 * sent a link holds the token's SHA-256, never the token.
 */
@Injectable()
export class PasswordResetsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Records a request for a link. Counted under locks of the client and the address, held until the
   * request is written, so two at once cannot both take the last place: a client past its hourly limit
   * is throttled (nothing recorded); an address past its own gets no link (`linkFor` is not asked).
   * Rows older than a day go first: they count toward nothing.
   */
  async record(
    request: { client: string; email: string; perClientPerHour: number; perAddressPerHour: number },
    linkFor: () => Promise<ResetLink | undefined>,
  ): Promise<RecordedRequest> {
    const { client, email } = request;
    return inTransaction(this.db, async (sql) => {
      await sql(`DELETE FROM password_reset_requests WHERE created_at < now() - interval '1 day'`);
      // The client's lock first, then the address's (never a cycle): both counts hold until the insert.
      await sql(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [`password-reset-client:${client}`]);
      await sql(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [`password-reset:${email}`]);
      const [made] = await sql<{ by_client: number; clients_oldest: Date | null; for_address: number }>(
        `SELECT (SELECT count(*)::int FROM password_reset_requests
                  WHERE client = $1 AND created_at > now() - interval '1 hour') AS by_client,
                (SELECT min(created_at) FROM password_reset_requests
                  WHERE client = $1 AND created_at > now() - interval '1 hour') AS clients_oldest,
                (SELECT count(*)::int FROM password_reset_requests
                  WHERE email = $2 AND created_at > now() - interval '1 hour') AS for_address`,
        [client, email],
      );
      if (made.by_client >= request.perClientPerHour) {
        const until = new Date((made.clients_oldest ?? new Date()).getTime() + 60 * 60 * 1000);
        return { kind: 'throttled', until };
      }
      const link = made.for_address < request.perAddressPerHour ? await linkFor() : undefined;
      await sql(
        `INSERT INTO password_reset_requests (email, client, token_hash, expires_at)
         VALUES ($1, $2, $3, CASE WHEN $3::text IS NULL THEN NULL ELSE now() + make_interval(mins => $4) END)`,
        [email, client, link?.tokenHash ?? null, link?.validMinutes ?? 0],
      );
      return { kind: 'recorded', link };
    });
  }

  /** The address behind a link that can still be used (while it has a proven login), or null. */
  async findUsable(tokenHash: string): Promise<{ email: string } | null> {
    const [row] = await sqlRows<{ email: string }>(
      this.db,
      `SELECT r.email FROM password_reset_requests r
       WHERE r.token_hash = $1 AND r.used_at IS NULL AND r.expires_at > now()
         AND EXISTS (SELECT 1 FROM merchant_members m WHERE m.email = r.email AND m.address_proven)`,
      [tokenHash],
    );
    return row ?? null;
  }

  /**
   * Claims a usable link for `seconds`, before the new password is hashed: one statement, so of many
   * requests at once only one gets it; the others find it claimed until the claim lapses.
   */
  async claim(tokenHash: string, seconds: number): Promise<ResetClaim | null> {
    const [row] = await sqlRows<{ claimed_until: Date }>(
      this.db,
      `UPDATE password_reset_requests
          SET claimed_until = date_trunc('milliseconds', clock_timestamp() + make_interval(secs => $2))
       WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now()
         AND (claimed_until IS NULL OR claimed_until <= now())
       RETURNING claimed_until`,
      [tokenHash, seconds],
    );
    return row ? { tokenHash, until: row.claimed_until } : null;
  }

  /** The claimant could not finish: the link is usable again at once, unless another request holds it now. */
  async releaseClaim(claim: ResetClaim): Promise<void> {
    await sqlRows(
      this.db,
      `UPDATE password_reset_requests SET claimed_until = NULL WHERE token_hash = $1 AND claimed_until = $2`,
      [claim.tokenHash, claim.until],
    );
  }

  /** The address of a link this claim still holds, unused and unexpired, or null (read before the address's lock). */
  async claimedAddress(sql: Sql, claim: ResetClaim): Promise<string | null> {
    const [row] = await sql<{ email: string }>(
      `SELECT email FROM password_reset_requests
       WHERE token_hash = $1 AND claimed_until = $2 AND used_at IS NULL AND expires_at > now()`,
      [claim.tokenHash, claim.until],
    );
    return row?.email ?? null;
  }

  /**
   * Uses the claimed link (setting the passwords then uses up the address's other open links): the
   * address, or null when the claim was lost meanwhile.
   */
  async use(sql: Sql, claim: ResetClaim): Promise<string | null> {
    const [row] = await sql<{ email: string }>(
      `UPDATE password_reset_requests SET used_at = now()
       WHERE token_hash = $1 AND claimed_until = $2 AND used_at IS NULL AND expires_at > now()
       RETURNING email`,
      [claim.tokenHash, claim.until],
    );
    return row?.email ?? null;
  }
}
