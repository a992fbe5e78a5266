import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { sqlRows } from '@payhook/persistence';
import { DataSource } from 'typeorm';

/** The changes an endpoint's owners are told about. */
export type NoticeKind = 'failing' | 'disabled' | 'recovered';

/** An unsent notice, claimed by one sender until its lease runs out; with what its e-mail says. */
export interface ClaimedNotice {
  id: string;
  endpointId: string;
  merchantId: string;
  merchantName: string;
  timeZone: string;
  livemode: boolean;
  kind: NoticeKind;
  /** When the endpoint started failing: the episode the notice is about. */
  failingSince: Date;
  url: string;
  /** The endpoint's description as it is now (null without one, or once the endpoint is deleted). */
  description: string | null;
  lastError: string | null;
  /** When the change happened (the row was written). */
  createdAt: Date;
  /** This claim included. */
  sendAttempts: number;
}

/** An endpoint of the merchant that its owners must look at: disabled, or failing for WEBHOOK_NOTICE_AFTER. */
export interface EndpointInTrouble {
  id: string;
  url: string;
  livemode: boolean;
  status: 'enabled' | 'disabled';
  failingSince: Date | null;
}

interface NoticeRow {
  id: string;
  endpoint_id: string;
  merchant_id: string;
  merchant_name: string;
  time_zone: string;
  livemode: boolean;
  kind: NoticeKind;
  episode: Date;
  url: string;
  description: string | null;
  last_error: string | null;
  created_at: Date;
  send_attempts: number;
}

/**
 * The notices the dispatcher writes (in the statement that changes an endpoint's health) and the
 * API's sender e-mails. The table is read by both apps: its columns are part of their contract.
 */
@Injectable()
export class WebhookNoticesRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Up to `limit` unsent notices that are due, oldest due first, each leased to this caller for
   * `leaseMs` (its send_after moves past the lease): SKIP LOCKED lets every API instance claim at
   * once without taking the same row, and one that dies mid-send hands its rows back when the lease ends.
   */
  async claimDue(limit: number, leaseMs: number): Promise<ClaimedNotice[]> {
    const rows = await sqlRows<NoticeRow>(
      this.db,
      `UPDATE webhook_notices n
       SET send_after = now() + make_interval(secs => $2 / 1000.0), send_attempts = n.send_attempts + 1
       FROM (SELECT id FROM webhook_notices WHERE sent_at IS NULL AND send_after <= now()
             ORDER BY send_after LIMIT $1 FOR UPDATE SKIP LOCKED) due, merchants m
       WHERE n.id = due.id AND m.id = n.merchant_id
       RETURNING n.id, n.endpoint_id, n.merchant_id, m.name AS merchant_name, m.time_zone, n.livemode, n.kind,
                 n.episode, n.url, n.last_error, n.created_at, n.send_attempts,
                 (SELECT description FROM webhook_endpoints WHERE id = n.endpoint_id) AS description`,
      [limit, leaseMs],
      'webhook-notices-claim',
    );
    return rows
      .map((row) => ({
        id: String(row.id),
        endpointId: row.endpoint_id,
        merchantId: row.merchant_id,
        merchantName: row.merchant_name,
        timeZone: row.time_zone,
        livemode: row.livemode,
        kind: row.kind,
        failingSince: row.episode,
        url: row.url,
        description: row.description,
        lastError: row.last_error,
        createdAt: row.created_at,
        sendAttempts: row.send_attempts,
      }))
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  }

  /** Sent (or nobody to send it to): never claimed again. */
  async markSent(id: string, note: string | null = null): Promise<void> {
    await sqlRows(this.db, `UPDATE webhook_notices SET sent_at = now(), last_send_error = $2 WHERE id = $1`, [
      id,
      note,
    ]);
  }

  /** The SMTP server refused or did not answer: due again after `delayMs`, with why. */
  async retryLater(id: string, error: string, delayMs: number): Promise<void> {
    await sqlRows(
      this.db,
      `UPDATE webhook_notices SET send_after = now() + make_interval(secs => $3 / 1000.0), last_send_error = $2
       WHERE id = $1 AND sent_at IS NULL`,
      [id, error.slice(0, 1000), delayMs],
    );
  }

  /**
   * The merchant's endpoints (both modes) that are disabled, or whose automatic attempts have failed
   * for `noticeAfterMs`: what the console's banner shows. At most 16 per mode, read by the merchant's
   * range of webhook_endpoints_scope_idx.
   */
  async endpointsInTrouble(merchantId: string, noticeAfterMs: number): Promise<EndpointInTrouble[]> {
    const rows = await sqlRows<{
      id: string;
      url: string;
      livemode: boolean;
      status: 'enabled' | 'disabled';
      failing_since: Date | null;
    }>(
      this.db,
      `SELECT id, url, livemode, status, failing_since FROM webhook_endpoints
       WHERE merchant_id = $1
         AND (status = 'disabled' OR failing_since <= now() - make_interval(secs => $2 / 1000.0))
       ORDER BY livemode DESC, created_at, id`,
      [merchantId, noticeAfterMs],
      'console-endpoints-in-trouble',
    );
    return rows.map((row) => ({
      id: row.id,
      url: row.url,
      livemode: row.livemode,
      status: row.status,
      failingSince: row.failing_since,
    }));
  }
}
