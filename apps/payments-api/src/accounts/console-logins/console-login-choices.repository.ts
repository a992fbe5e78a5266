import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { sqlRows } from '@payhook/persistence';
import { DataSource } from 'typeorm';

/** A login the password opened, waiting to be chosen: its member and the password hash the check matched. */
export interface OpenedLogin {
  memberId: string;
  merchantId: string;
  passwordHash: string;
  twoStep: boolean;
}

/**
 * A password that opened the logins of one address at several merchants, until the person chooses
 * one. Keyed by the SHA-256 of a token only the login's answer carries; each row keeps the hash the
 * password matched, so the session made from it is refused if the password changed meanwhile.
 */
@Injectable()
export class ConsoleLoginChoicesRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async insert(
    tokenHash: string,
    logins: { memberId: string; passwordHash: string }[],
    minutes: number,
  ): Promise<void> {
    await sqlRows(
      this.db,
      `INSERT INTO console_login_choices (token_hash, member_id, password_hash, expires_at)
       SELECT $1, member_id, password_hash, now() + make_interval(mins => $4)
         FROM unnest($2::text[], $3::text[]) AS opened (member_id, password_hash)`,
      [tokenHash, logins.map((login) => login.memberId), logins.map((login) => login.passwordHash), minutes],
    );
  }

  /**
   * Takes the choice: every row of the token goes in one statement (a choice is made once), and the
   * chosen login comes back if it was one of them and the choice had not expired.
   */
  async take(tokenHash: string, memberId: string): Promise<OpenedLogin | null> {
    const rows = await sqlRows<{
      member_id: string;
      merchant_id: string;
      password_hash: string;
      two_step: boolean;
      live: boolean;
    }>(
      this.db,
      `DELETE FROM console_login_choices c USING merchant_members m
       WHERE c.token_hash = $1 AND m.id = c.member_id
       RETURNING c.member_id, m.merchant_id, c.password_hash, m.totp_secret IS NOT NULL AS two_step,
                 c.expires_at > now() AS live`,
      [tokenHash],
    );
    const chosen = rows.find((row) => row.member_id === memberId && row.live);
    return chosen
      ? {
          memberId: chosen.member_id,
          merchantId: chosen.merchant_id,
          passwordHash: chosen.password_hash,
          twoStep: chosen.two_step,
        }
      : null;
  }

  async purgeExpired(): Promise<void> {
    await sqlRows(this.db, `DELETE FROM console_login_choices WHERE expires_at <= now()`);
  }
}
