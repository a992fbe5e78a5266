import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DEFAULT_ENABLED_EVENTS, type EventType } from '@payhook/contracts';
import { sqlRows } from '@payhook/persistence';
import { DataSource } from 'typeorm';
import type { MerchantScope } from '../payments/payment.record';
import type { WebhookEndpointRecord } from './webhook-endpoint.record';

interface EndpointRow {
  merchant_id: string;
  livemode: boolean;
  url: string;
  signing_secret: string;
  enabled_events: EventType[];
  status: 'enabled' | 'disabled';
  failing_since: Date | null;
  consecutive_failures: number;
  last_error: string | null;
  disabled_at: Date | null;
}

const ENDPOINT_COLUMNS = `merchant_id, livemode, url, signing_secret, enabled_events, status, failing_since,
  consecutive_failures, last_error, disabled_at`;

const toRecord = (row: EndpointRow): WebhookEndpointRecord => ({
  merchantId: row.merchant_id,
  livemode: row.livemode,
  url: row.url,
  signingSecret: row.signing_secret,
  enabledEvents: row.enabled_events,
  status: row.status,
  failingSince: row.failing_since,
  consecutiveFailures: row.consecutive_failures,
  lastError: row.last_error,
  disabledAt: row.disabled_at,
});

@Injectable()
export class WebhookEndpointsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async find(scope: MerchantScope): Promise<WebhookEndpointRecord | null> {
    const rows = await sqlRows<EndpointRow>(
      this.db,
      `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE merchant_id = $1 AND livemode = $2`,
      [scope.merchantId, scope.livemode],
    );
    return rows[0] ? toRecord(rows[0]) : null;
  }

  /**
   * Sets the URL, and the event types when given (null: a new endpoint gets the default, an existing
   * one keeps its own); a new endpoint gets `newSecret`, an existing one keeps its secret. Either way
   * the endpoint is enabled with a clean health record (DESIGN.md §8: PUT re-enables).
   */
  async upsert(
    scope: MerchantScope,
    url: string,
    enabledEvents: EventType[] | null,
    newSecret: string,
  ): Promise<WebhookEndpointRecord> {
    const rows = await sqlRows<EndpointRow>(
      this.db,
      `INSERT INTO webhook_endpoints (merchant_id, livemode, url, signing_secret, enabled_events)
       VALUES ($1, $2, $3, $4, COALESCE($5::text[], $6::text[]))
       ON CONFLICT (merchant_id, livemode) DO UPDATE SET url = EXCLUDED.url, updated_at = now(),
         enabled_events = COALESCE($5::text[], webhook_endpoints.enabled_events),
         status = 'enabled', disabled_at = NULL, failing_since = NULL, consecutive_failures = 0, last_error = NULL
       RETURNING ${ENDPOINT_COLUMNS}`,
      [scope.merchantId, scope.livemode, url, newSecret, enabledEvents, DEFAULT_ENABLED_EVENTS],
    );
    return toRecord(rows[0]);
  }

  async replaceSecret(scope: MerchantScope, secret: string): Promise<WebhookEndpointRecord | null> {
    const rows = await sqlRows<EndpointRow>(
      this.db,
      `UPDATE webhook_endpoints SET signing_secret = $3, updated_at = now()
       WHERE merchant_id = $1 AND livemode = $2
       RETURNING ${ENDPOINT_COLUMNS}`,
      [scope.merchantId, scope.livemode, secret],
    );
    return rows[0] ? toRecord(rows[0]) : null;
  }
}
