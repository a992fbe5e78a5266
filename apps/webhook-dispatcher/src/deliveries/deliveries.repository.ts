import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { SealedSecretError, signingSecretContext, type SecretsKeyring } from '@payhook/config';
import { newId, type DeliveryStatus } from '@payhook/contracts';
import { MicroBatcher, sqlRows } from '@payhook/persistence';
import { DataSource } from 'typeorm';
import { WebhookDispatcherEnv } from '../config/webhook-dispatcher.env';
import { healthChanges } from './endpoint-health';

/** The reason an event shows when its endpoint was disabled (DESIGN.md §8). */
export const ENDPOINT_DISABLED = 'endpoint_disabled';

/**
 * The reason an event shows when its endpoint's signing secret does not open with SECRETS_KEY (or
 * SECRETS_KEY_PREVIOUS): a misconfigured key. Failed, so recover and redeliver find it once fixed.
 */
export const SIGNING_SECRET_UNREADABLE =
  'signing_secret_unreadable: the signing secret does not open with SECRETS_KEY; fix the key or rotate the secret, then redeliver';

/** The endpoint of one merchant and mode, as its health stands now. */
export interface EndpointState {
  key: EndpointKey;
  url: string;
  signingSecret: string;
  /** The rotated-out secret while its overlap lasts: it still signs webhook-signature (DESIGN §9). */
  previousSecret: PreviousSecret | null;
  status: 'enabled' | 'disabled';
  consecutiveFailures: number;
}

export interface EndpointKey {
  merchantId: string;
  livemode: boolean;
}

/** What one attempt needs, read in one query: the fixed body and the endpoint as it is now. */
export interface DeliveryTarget {
  eventId: string;
  /** The payment the event is about, for the attempt's log line. */
  paymentId: string;
  body: string;
  deliveryStatus: DeliveryStatus;
  /** Null when the merchant has not set an endpoint for the event's mode. */
  endpoint: EndpointState | null;
  /** `merchant:mode`, the unit of isolation. */
  endpointKey: string;
}

export interface AttemptRecord {
  eventId: string;
  /** The endpoint the attempt went to, whose health it counts for. */
  endpoint: EndpointKey;
  url: string;
  startedAt: Date;
  durationMs: number;
  responseStatus: number | null;
  responseBody: string | null;
  error: string | null;
  /** The delivery status after this attempt; null keeps the current one. */
  deliveryStatus: DeliveryStatus | null;
  /** Automatic attempts count toward the endpoint's health; manual redeliveries do not. */
  countsForHealth: boolean;
  /** For a failed attempt whose retry waits in the endpoint's lane: when it is due, and its step. */
  laneRetry: { dueAt: Date; retryStep: number } | null;
}

export interface RecordedAttempt {
  number: number;
  /** True when this attempt disabled the endpoint (it had failed for WEBHOOK_DISABLE_AFTER). */
  disabledEndpoint: boolean;
}

interface ParkedEvent {
  eventId: string;
  retryStep: number;
  dueAt: Date;
  /** The correlation of the request that caused the delivery, kept while it waits in the lane. */
  headers: Record<string, string>;
}

export const endpointKeyOf = (key: EndpointKey) => `${key.merchantId}:${key.livemode ? 'live' : 'test'}`;

/**
 * A select-list item over `webhook_endpoints w`: its rotated-out secret while the overlap lasts, else
 * null (one that expired is still in the row until the API's purger clears it, but never signs).
 */
export const PREVIOUS_SECRET_SQL = `CASE WHEN w.previous_secret_expires_at > now() THEN w.previous_signing_secret END
  AS previous_signing_secret, w.previous_secret_expires_at`;

export interface PreviousSecret {
  secret: string;
  expiresAt: Date;
}

/** The secrets that sign an endpoint's delivery at `now`, newest first: the previous one only until it expires. */
export const signingSecretsOf = (endpoint: EndpointState, now = new Date()): string[] =>
  endpoint.previousSecret && endpoint.previousSecret.expiresAt > now
    ? [endpoint.signingSecret, endpoint.previousSecret.secret]
    : [endpoint.signingSecret];

const previousSecretLogger = new Logger('SigningSecrets');

/**
 * The rotated-out secret of a row read with PREVIOUS_SECRET_SQL, or null. One that does not open (its key
 * gone from SECRETS_KEY_PREVIOUS too early) only ends the overlap: the current secret still signs.
 */
export function openPreviousSecret(
  keyring: SecretsKeyring,
  key: EndpointKey,
  row: { previous_signing_secret: string | null; previous_secret_expires_at: Date | null },
): PreviousSecret | null {
  if (!row.previous_signing_secret || !row.previous_secret_expires_at) return null;
  try {
    return {
      secret: openSigningSecret(keyring, key, row.previous_signing_secret),
      expiresAt: row.previous_secret_expires_at,
    };
  } catch (error) {
    if (!(error instanceof SealedSecretError)) throw error;
    previousSecretLogger.warn(
      `the rotated-out signing secret of ${key.merchantId}:${key.livemode ? 'live' : 'test'} does not open with ` +
        'SECRETS_KEY or SECRETS_KEY_PREVIOUS: deliveries are signed with the current secret alone',
    );
    return null;
  }
}

/**
 * The plain signing secret of a stored endpoint row: sealed under SECRETS_KEY (or, during a
 * rotation, SECRETS_KEY_PREVIOUS) for that endpoint. Throws SealedSecretError, never a wrong secret.
 */
export const openSigningSecret = (keyring: SecretsKeyring, key: EndpointKey, stored: string): string =>
  keyring.open(stored, signingSecretContext(key));

interface TargetRow {
  id: string;
  payment_id: string;
  body: string;
  delivery_status: DeliveryStatus;
  merchant_id: string;
  livemode: boolean;
  url: string | null;
  signing_secret: string | null;
  previous_signing_secret: string | null;
  previous_secret_expires_at: Date | null;
  status: 'enabled' | 'disabled' | null;
  consecutive_failures: number | null;
}

/** Items one batch carries at most: small enough to keep each statement short. */
const MAX_BATCH = 100;

function toTarget(row: TargetRow, keyring: SecretsKeyring): DeliveryTarget {
  const key = { merchantId: row.merchant_id, livemode: row.livemode };
  return {
    eventId: row.id,
    paymentId: row.payment_id,
    body: row.body,
    deliveryStatus: row.delivery_status,
    endpoint:
      row.url && row.signing_secret
        ? {
            key,
            url: row.url,
            signingSecret: openSigningSecret(keyring, key, row.signing_secret),
            previousSecret: openPreviousSecret(keyring, key, row),
            status: row.status ?? 'enabled',
            consecutiveFailures: row.consecutive_failures ?? 0,
          }
        : null,
    endpointKey: endpointKeyOf(key),
  };
}

@Injectable()
export class DeliveriesRepository {
  // Every delivery reads its target and records its attempt, and parked work is written once per
  // event: batched, these are a few statements per round trip instead of one per delivery.
  private readonly targets = new MicroBatcher((ids: string[]) => this.findTargetRows(ids), { maxBatch: MAX_BATCH });
  private readonly attempts = new MicroBatcher((records: AttemptRecord[]) => this.recordAttempts(records), {
    maxBatch: MAX_BATCH,
    keysOf: (record) => [record.eventId],
  });
  private readonly parks = new MicroBatcher((parked: ParkedEvent[]) => this.parkEvents(parked), {
    maxBatch: MAX_BATCH,
    keysOf: (event) => [event.eventId],
  });

  private readonly keyring: SecretsKeyring;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(WebhookDispatcherEnv) private readonly env: WebhookDispatcherEnv,
  ) {
    this.keyring = env.secretsKeyring;
  }

  /** The secret is opened per event, after the batch: a row that does not open fails its own delivery only. */
  async findTarget(eventId: string): Promise<DeliveryTarget | null> {
    const row = await this.targets.submit(eventId);
    return row ? toTarget(row, this.keyring) : null;
  }

  /**
   * Numbers and records the attempt, sets the event's delivery status (a succeeded event stays
   * succeeded) and, for an automatic attempt, the endpoint's health. After WEBHOOK_DISABLE_AFTER
   * of failures since `failing_since`, a failed attempt disables the endpoint.
   */
  recordAttempt(attempt: AttemptRecord): Promise<RecordedAttempt> {
    return this.attempts.submit(attempt);
  }

  /**
   * Moves an event into its endpoint's lane (Postgres), due at `dueAt` with its retry step; the
   * broker message can be acknowledged once it resolves. A lane worker finds it by the lane index.
   */
  async park(eventId: string, retryStep: number, dueAt: Date, headers: Record<string, string>): Promise<void> {
    await this.parks.submit({ eventId, retryStep, dueAt, headers });
  }

  private async findTargetRows(eventIds: string[]): Promise<(TargetRow | null)[]> {
    const rows = await sqlRows<TargetRow>(
      this.db,
      `SELECT e.id, e.payment_id, e.body, e.delivery_status, e.merchant_id, e.livemode, w.url, w.signing_secret,
              ${PREVIOUS_SECRET_SQL}, w.status, w.consecutive_failures
       FROM events e
       LEFT JOIN webhook_endpoints w ON w.merchant_id = e.merchant_id AND w.livemode = e.livemode
       WHERE e.id = ANY($1::text[])`,
      [eventIds],
      'dispatcher-find-targets',
    );
    const byId = new Map(rows.map((row) => [row.id, row]));
    return eventIds.map((id) => byId.get(id) ?? null);
  }

  /**
   * One statement for a batch of attempts (each of a different event): the events, the attempt
   * rows, and the health of the endpoints they count for, applied on top of the stored health.
   */
  private async recordAttempts(records: AttemptRecord[]): Promise<RecordedAttempt[]> {
    const failed = (record: AttemptRecord) => record.responseStatus === null || record.error !== null;
    const health = healthChanges(
      records
        .filter((record) => record.countsForHealth)
        .map((record) => ({
          endpoint: record.endpoint,
          failed: failed(record),
          startedAt: record.startedAt,
          error: record.error,
        })),
    );
    const rows = await sqlRows<{
      kind: 'attempt' | 'disabled';
      id: string;
      number: number | null;
      livemode: boolean | null;
    }>(
      this.db,
      `WITH input AS (
         SELECT * FROM unnest($1::text[], $2::text[], $3::timestamptz[], $4::text[], $5::int[], $6::int[],
                              $7::text[], $8::text[], $9::text[], $10::timestamptz[], $11::int[])
           AS i(attempt_id, event_id, started_at, url, duration_ms, response_status, response_body, error,
                delivery_status, lane_due_at, lane_retry_step)
       ), event AS (
         UPDATE events e SET attempt_count = e.attempt_count + 1, last_attempt_at = i.started_at,
           undelivered_reason = NULL,
           delivery_status = CASE WHEN e.delivery_status = 'succeeded' THEN 'succeeded'
                             ELSE COALESCE(i.delivery_status, e.delivery_status) END,
           lane_due_at = i.lane_due_at, lane_retry_step = i.lane_retry_step
         FROM input i WHERE e.id = i.event_id
         RETURNING e.id, e.attempt_count
       ), attempt AS (
         INSERT INTO webhook_attempts
           (id, event_id, number, url, started_at, duration_ms, response_status, response_body, error)
         SELECT i.attempt_id, i.event_id, event.attempt_count, i.url, i.started_at, i.duration_ms,
                i.response_status, i.response_body, i.error
         FROM input i JOIN event ON event.id = i.event_id
         RETURNING event_id, number
       ), observed AS (
         SELECT * FROM unnest($12::text[], $13::bool[], $14::int[], $15::bool[], $16::timestamptz[], $17::text[])
           AS h(merchant_id, livemode, tail_failures, any_success, tail_failing_since, last_error)
       ), health AS (
         UPDATE webhook_endpoints w SET
           consecutive_failures = CASE WHEN h.any_success THEN h.tail_failures
                                  ELSE w.consecutive_failures + h.tail_failures END,
           failing_since = CASE WHEN h.tail_failures = 0 THEN NULL
                           WHEN h.any_success THEN h.tail_failing_since
                           ELSE COALESCE(w.failing_since, h.tail_failing_since) END,
           last_error = COALESCE(h.last_error, w.last_error),
           status = CASE WHEN h.tail_failures > 0 AND now() - CASE WHEN h.any_success THEN h.tail_failing_since
                         ELSE COALESCE(w.failing_since, h.tail_failing_since) END >= make_interval(secs => $18 / 1000.0)
                    THEN 'disabled' ELSE w.status END,
           disabled_at = CASE WHEN h.tail_failures > 0 AND w.status = 'enabled'
                         AND now() - CASE WHEN h.any_success THEN h.tail_failing_since
                             ELSE COALESCE(w.failing_since, h.tail_failing_since) END >= make_interval(secs => $18 / 1000.0)
                         THEN now() ELSE w.disabled_at END
         FROM observed h
         WHERE w.merchant_id = h.merchant_id AND w.livemode = h.livemode
           -- A success on a healthy endpoint writes nothing: no hot row for a busy merchant.
           AND (h.tail_failures > 0 OR w.consecutive_failures > 0 OR w.failing_since IS NOT NULL)
         RETURNING w.merchant_id, w.livemode, w.status = 'disabled' AND w.disabled_at = now() AS disabled
       )
       SELECT 'attempt' AS kind, event_id AS id, number, NULL::boolean AS livemode FROM attempt
       UNION ALL
       SELECT 'disabled', merchant_id, NULL, livemode FROM health WHERE disabled`,
      [
        records.map(() => newId('attempt')),
        records.map((r) => r.eventId),
        records.map((r) => r.startedAt),
        records.map((r) => r.url),
        records.map((r) => r.durationMs),
        records.map((r) => r.responseStatus),
        records.map((r) => r.responseBody),
        records.map((r) => r.error),
        records.map((r) => r.deliveryStatus),
        records.map((r) => r.laneRetry?.dueAt ?? null),
        records.map((r) => r.laneRetry?.retryStep ?? null),
        health.map((h) => h.endpoint.merchantId),
        health.map((h) => h.endpoint.livemode),
        health.map((h) => h.tailFailures),
        health.map((h) => h.anySuccess),
        health.map((h) => h.tailFailingSince),
        health.map((h) => h.lastError),
        this.env.disableAfterMs,
      ],
      'dispatcher-record-attempts',
    );
    const numbers = new Map(rows.filter((row) => row.kind === 'attempt').map((row) => [row.id, row.number ?? 0]));
    const disabled = new Set(
      rows
        .filter((row) => row.kind === 'disabled')
        .map((row) => endpointKeyOf({ merchantId: row.id, livemode: row.livemode! })),
    );
    return records.map((record) => ({
      number: numbers.get(record.eventId) ?? 0,
      disabledEndpoint: record.countsForHealth && disabled.has(endpointKeyOf(record.endpoint)),
    }));
  }

  private async parkEvents(parked: ParkedEvent[]): Promise<void[]> {
    await sqlRows(
      this.db,
      `UPDATE events e SET lane_due_at = p.due_at, lane_retry_step = p.retry_step, lane_headers = p.headers
       FROM unnest($1::text[], $2::int[], $3::timestamptz[], $4::jsonb[]) AS p(id, retry_step, due_at, headers)
       WHERE e.id = p.id AND e.delivery_status <> 'succeeded'`,
      [
        parked.map((p) => p.eventId),
        parked.map((p) => p.retryStep),
        parked.map((p) => p.dueAt),
        parked.map((p) => JSON.stringify(p.headers)),
      ],
      'dispatcher-park-events',
    );
    return parked.map(() => undefined);
  }

  /** Nothing could be sent (no endpoint, or a disabled one): the event says why and leaves the lane. */
  async markUndelivered(eventId: string, reason: string): Promise<void> {
    await sqlRows(
      this.db,
      `UPDATE events SET undelivered_reason = $2, lane_due_at = NULL, lane_retry_step = NULL,
         delivery_status = CASE WHEN delivery_status = 'succeeded' THEN 'succeeded' ELSE 'failed' END
       WHERE id = $1`,
      [eventId, reason],
    );
  }

  /**
   * The endpoint was just disabled, or its secret cannot be read: everything still owed to it is
   * kept as failed, without an attempt.
   */
  async failLane(key: EndpointKey, reason = ENDPOINT_DISABLED): Promise<void> {
    await sqlRows(
      this.db,
      `UPDATE events SET undelivered_reason = $3, lane_due_at = NULL, lane_retry_step = NULL,
         delivery_status = CASE WHEN delivery_status = 'succeeded' THEN 'succeeded' ELSE 'failed' END
       WHERE merchant_id = $1 AND livemode = $2 AND lane_due_at IS NOT NULL`,
      [key.merchantId, key.livemode, reason],
    );
  }
}
