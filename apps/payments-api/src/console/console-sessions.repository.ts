import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { MerchantStatus } from '@payhook/contracts';
import { sqlRows } from '@payhook/persistence';
import { DataSource } from 'typeorm';
import type { ConsoleSession } from './console-session';

interface SessionRow {
  id: string;
  csrf_token: string;
  merchant_id: string;
  name: string;
  status: MerchantStatus;
  time_zone: string;
}

@Injectable()
export class ConsoleSessionsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async insert(session: { id: string; merchantId: string; csrfToken: string; ttlHours: number }): Promise<void> {
    await sqlRows(
      this.db,
      `INSERT INTO console_sessions (id, merchant_id, csrf_token, expires_at)
       VALUES ($1, $2, $3, now() + make_interval(hours => $4))`,
      [session.id, session.merchantId, session.csrfToken, session.ttlHours],
    );
  }

  /**
   * An unexpired session with its merchant as it is now (a new time zone shows at once), marked
   * as seen. One statement: the console pays one round trip per page for its session.
   */
  async findActive(id: string): Promise<ConsoleSession | null> {
    const rows = await sqlRows<SessionRow>(
      this.db,
      `WITH session AS (
         UPDATE console_sessions SET last_seen_at = now()
         WHERE id = $1 AND expires_at > now()
         RETURNING id, merchant_id, csrf_token
       )
       SELECT session.id, session.csrf_token, m.id AS merchant_id, m.name, m.status, m.time_zone
       FROM session JOIN merchants m ON m.id = session.merchant_id`,
      [id],
    );
    const [row] = rows;
    if (!row) return null;
    return {
      id: row.id,
      csrfToken: row.csrf_token,
      merchant: { id: row.merchant_id, name: row.name, status: row.status, timeZone: row.time_zone },
    };
  }

  async delete(id: string): Promise<void> {
    await sqlRows(this.db, `DELETE FROM console_sessions WHERE id = $1`, [id]);
  }

  async purgeExpired(): Promise<void> {
    await sqlRows(this.db, `DELETE FROM console_sessions WHERE expires_at <= now()`);
  }
}
