import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { SealedSecretError, signingSecretContext, type SecretsKeyring } from '@payhook/config';
import { newId, type DeliveryStatus } from '@payhook/contracts';
import { MicroBatcher, sqlRows, type WarmUpStatement } from '@payhook/persistence';
import { DataSource } from 'typeorm';
import { WebhookDispatcherEnv } from '../config/webhook-dispatcher.env';
import { healthChanges } from './endpoint-health';

/** The reason a delivery shows when its endpoint was disabled. */
export const ENDPOINT_DISABLED = 'endpoint_disabled';

/** The reason a delivery shows when its endpoint was deleted. */
export const ENDPOINT_DELETED = 'endpoint_deleted';

/** Why an event of a mode without any endpoint was not sent; the API writes the same. */
export const NO_ENDPOINT = 'No webhook endpoint is set for this mode; set one and redeliver the event.';

/**
 * The reason an event shows when its endpoint's signing secret does not open with SECRETS_KEY (or
 * SECRETS_KEY_PREVIOUS): a misconfigured key. Failed, so recover and redeliver find it once fixed.
 */
export const SIGNING_SECRET_UNREADABLE =
  'signing_secret_unreadable: the signing secret does not open with SECRETS_KEY; fix the key or rotate the secret, then redeliver';

/** An endpoint of a merchant's mode, as its health stands now. */
export interface EndpointState {
  key: EndpointKey;
  url: string;
  signingSecret: string;
  /** The rotated-out secret while its overlap lasts: it still signs webhook-signature. */
  previousSecret: PreviousSecret | null;
  status: 'enabled' | 'disabled';
  consecutiveFailures: number;
}

/** An endpoint (the unit of isolation): its secrets are sealed for it, its merchant and mode. */
export interface EndpointKey {
  id: string;
  merchantId: string;
  livemode: boolean;
}

/** The status of a delivery: `none` when the event owes the endpoint nothing (a manual redelivery may still send). */
export type TargetStatus = Exclude<DeliveryStatus, 'skipped'> | 'none';

/** What one attempt needs, read in one query: the fixed body and the endpoint as it is now. */
export interface DeliveryTarget {
  eventId: string;
  /** The payment the event is about, for the attempt's log line. */
  paymentId: string;
  body: string;
  /** The status of the event's delivery to this endpoint. */
  deliveryStatus: TargetStatus;
  /** Null when the endpoint is gone (deleted), or the mode has none (a v1 message). */
  endpoint: EndpointState | null;
}

/** A delivery request as the dispatcher reads it: to `endpointId`, or (v1) to the mode's oldest endpoint. */
export interface DeliveryAddress {
  eventId: string;
  endpointId: string | null;
}

export interface AttemptRecord {
  eventId: string;
  /** The endpoint the attempt went to, whose delivery it is and whose health it counts for. */
  endpoint: EndpointKey;
  manual: boolean;
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
  endpointId: string;
  retryStep: number;
  dueAt: Date;
  /** The correlation of the request that caused the delivery, kept while it waits in the lane. */
  headers: Record<string, string>;
}

/** The endpoint's id: slots and lanes are per endpoint (ADR 0007, ADR 0016). */
export const endpointKeyOf = (key: EndpointKey) => key.id;

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
      `the rotated-out signing secret of endpoint ${key.id} does not open with ` +
        'SECRETS_KEY or SECRETS_KEY_PREVIOUS: deliveries are signed with the current secret alone',
    );
    return null;
  }
}

/**
 * Opened signing secrets by context and sealed text, per keyring: every delivery reads its endpoint's
 * row, and opening it (AES-GCM) each time cost ~1.5% of the dispatcher's CPU. The sealed text changes
 * with the secret (a fresh IV each seal), so an entry is never stale; the context in the key keeps a
 * sealed value bound to its endpoint. At most OPENED_SECRETS_KEPT, all dropped when full.
 */
const openedSecrets = new WeakMap<SecretsKeyring, Map<string, string>>();
const OPENED_SECRETS_KEPT = 10_000;

/**
 * The plain signing secret of a stored endpoint row: sealed under SECRETS_KEY (or, during a
 * rotation, SECRETS_KEY_PREVIOUS) for that endpoint. Throws SealedSecretError, never a wrong secret.
 */
export function openSigningSecret(keyring: SecretsKeyring, key: EndpointKey, stored: string): string {
  const context = signingSecretContext(key);
  let opened = openedSecrets.get(keyring);
  if (!opened) openedSecrets.set(keyring, (opened = new Map<string, string>()));
  const cacheKey = `${context}\n${stored}`;
  const known = opened.get(cacheKey);
  if (known !== undefined) return known;
  const secret = keyring.open(stored, context);
  if (opened.size >= OPENED_SECRETS_KEPT) opened.clear();
  opened.set(cacheKey, secret);
  return secret;
}

interface TargetRow {
  id: string;
  payment_id: string;
  body: string;
  delivery_status: TargetStatus;
  merchant_id: string;
  livemode: boolean;
  endpoint_id: string | null;
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
  const key = { id: row.endpoint_id ?? '', merchantId: row.merchant_id, livemode: row.livemode };
  return {
    eventId: row.id,
    paymentId: row.payment_id,
    body: row.body,
    deliveryStatus: row.delivery_status,
    endpoint:
      row.endpoint_id && row.url && row.signing_secret
        ? {
            key,
            url: row.url,
            signingSecret: openSigningSecret(keyring, key, row.signing_secret),
            previousSecret: openPreviousSecret(keyring, key, row),
            status: row.status ?? 'enabled',
            consecutiveFailures: row.consecutive_failures ?? 0,
          }
        : null,
  };
}

/**
 * Each address's event, its endpoint (the named one, or a v1 message's oldest) and their delivery. Each
 * read is a LATERAL probe by its key (`OFFSET 0` keeps it one): a plan made while the tables were empty
 * otherwise joined the batch against a whole-index scan, kept as the tables grew (docs/performance.md).
 */
const FIND_TARGETS = {
  name: 'dispatcher-find-targets',
  text: `SELECT a.n, e.id, e.payment_id, e.body, COALESCE(d.status, 'none') AS delivery_status, e.merchant_id,
          e.livemode, w.id AS endpoint_id, w.url, w.signing_secret, ${PREVIOUS_SECRET_SQL}, w.status,
          w.consecutive_failures
   FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS a(event_id, endpoint_id, n)
   CROSS JOIN LATERAL (SELECT * FROM events e WHERE e.id = a.event_id OFFSET 0) e
   LEFT JOIN LATERAL (SELECT * FROM webhook_endpoints w
                      WHERE w.merchant_id = e.merchant_id AND w.livemode = e.livemode
                        AND (a.endpoint_id IS NULL OR w.id = a.endpoint_id)
                      ORDER BY w.created_at, w.id LIMIT 1) w ON true
   LEFT JOIN LATERAL (SELECT d.status FROM webhook_deliveries d
                      WHERE d.event_id = e.id AND d.endpoint_id = COALESCE(a.endpoint_id, w.id) OFFSET 0) d ON true`,
};

/** A batch of attempts: see recordAttempts. */
const RECORD_ATTEMPTS = {
  name: 'dispatcher-record-attempts',
  text: `WITH input AS (
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::boolean[], $5::timestamptz[], $6::text[],
                          $7::int[], $8::int[], $9::text[], $10::text[], $11::text[], $12::timestamptz[], $13::int[])
       WITH ORDINALITY AS i(attempt_id, event_id, endpoint_id, manual, started_at, url, duration_ms,
            response_status, response_body, error, delivery_status, lane_due_at, lane_retry_step, n)
   ), counted AS (
     -- An event's attempts to several of its endpoints may share the batch: counted together.
     SELECT event_id, count(*)::int AS attempts, max(started_at) AS last_started FROM input GROUP BY event_id
   ), locked AS (
     -- In id order, each a probe by the key: the event updated below is the row version locked here.
     SELECT e.id, e.ctid FROM (SELECT DISTINCT event_id FROM input ORDER BY event_id) i
     CROSS JOIN LATERAL (SELECT id, ctid FROM events WHERE id = i.event_id OFFSET 0 FOR UPDATE) e
   ), event AS (
     UPDATE events e SET attempt_count = e.attempt_count + c.attempts, last_attempt_at = c.last_started
     FROM counted c JOIN locked ON locked.id = c.event_id
     WHERE e.ctid = locked.ctid
     RETURNING e.id, e.attempt_count, c.attempts, e.merchant_id, e.livemode, e.created_at
   ), attempt AS (
     -- Numbered after the event's earlier attempts, in the batch's order.
     INSERT INTO webhook_attempts
       (id, event_id, endpoint_id, number, url, started_at, duration_ms, response_status, response_body, error)
     SELECT i.attempt_id, i.event_id, i.endpoint_id,
            event.attempt_count - event.attempts + (row_number() OVER (PARTITION BY i.event_id ORDER BY i.n))::int,
            i.url, i.started_at, i.duration_ms, i.response_status, i.response_body, i.error
     FROM input i JOIN event ON event.id = i.event_id
     RETURNING event_id, endpoint_id, number
   ), delivery AS (
     -- A succeeded delivery stays succeeded, and one that ended failed meanwhile (its endpoint deleted
     -- or disabled) stays failed with its reason unless this attempt succeeded; a person's attempt
     -- leaves the lane as it is.
     UPDATE webhook_deliveries d SET
       status = CASE WHEN d.status = 'succeeded' OR i.delivery_status = 'succeeded' THEN 'succeeded'
                     WHEN d.status = 'failed' THEN 'failed' ELSE COALESCE(i.delivery_status, d.status) END,
       undelivered_reason = CASE WHEN d.status = 'failed' AND i.delivery_status IS DISTINCT FROM 'succeeded'
                                 THEN d.undelivered_reason END,
       lane_due_at = CASE WHEN d.status = 'failed' THEN NULL WHEN i.manual THEN d.lane_due_at
                          ELSE i.lane_due_at END,
       lane_retry_step = CASE WHEN d.status = 'failed' THEN NULL WHEN i.manual THEN d.lane_retry_step
                              ELSE i.lane_retry_step END
     FROM input i JOIN event ON event.id = i.event_id
     WHERE d.event_id = i.event_id AND d.endpoint_id = i.endpoint_id
     RETURNING d.event_id
   ), first_delivery AS (
     -- An event the endpoint did not take (skipped), delivered by a person: now it has a delivery.
     INSERT INTO webhook_deliveries (event_id, endpoint_id, merchant_id, livemode, status, lane_due_at,
                                     lane_retry_step, created_at)
     SELECT i.event_id, i.endpoint_id, event.merchant_id, event.livemode, i.delivery_status, i.lane_due_at,
            i.lane_retry_step, event.created_at
     FROM input i JOIN event ON event.id = i.event_id
     WHERE i.delivery_status IS NOT NULL
       AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = i.event_id AND d.endpoint_id = i.endpoint_id)
     ON CONFLICT (event_id, endpoint_id) DO NOTHING
   ), observed AS (
     SELECT * FROM unnest($14::text[], $15::int[], $16::bool[], $17::timestamptz[], $18::text[])
       AS h(endpoint_id, tail_failures, any_success, tail_failing_since, last_error)
   ), endpoint_locked AS (
     -- After the events (the attempt branch runs first), in id order: no cycle with another batch.
     -- Locked, so failing_since is the latest: the episode a success ends, for its recovered notice.
     SELECT id, failing_since AS was_failing_since FROM webhook_endpoints
     WHERE id IN (SELECT endpoint_id FROM observed) ORDER BY id FOR UPDATE
   ), health AS (
     UPDATE webhook_endpoints w SET
       consecutive_failures = CASE WHEN h.any_success THEN h.tail_failures
                              ELSE w.consecutive_failures + h.tail_failures END,
       failing_since = CASE WHEN h.tail_failures = 0 THEN NULL
                       WHEN h.any_success THEN h.tail_failing_since
                       ELSE COALESCE(w.failing_since, h.tail_failing_since) END,
       last_error = COALESCE(h.last_error, w.last_error),
       status = CASE WHEN h.tail_failures > 0 AND now() - CASE WHEN h.any_success THEN h.tail_failing_since
                     ELSE COALESCE(w.failing_since, h.tail_failing_since) END >= make_interval(secs => $19 / 1000.0)
                THEN 'disabled' ELSE w.status END,
       disabled_at = CASE WHEN h.tail_failures > 0 AND w.status = 'enabled'
                     AND now() - CASE WHEN h.any_success THEN h.tail_failing_since
                         ELSE COALESCE(w.failing_since, h.tail_failing_since) END >= make_interval(secs => $19 / 1000.0)
                     THEN now() ELSE w.disabled_at END
     FROM observed h JOIN endpoint_locked ON endpoint_locked.id = h.endpoint_id
     WHERE w.id = h.endpoint_id
       -- A success on a healthy endpoint writes nothing: no hot row for a busy merchant.
       AND (h.tail_failures > 0 OR w.consecutive_failures > 0 OR w.failing_since IS NOT NULL)
     RETURNING w.id, w.merchant_id, w.livemode, w.url, w.status, w.failing_since, w.last_error,
               endpoint_locked.was_failing_since, h.any_success,
               w.status = 'disabled' AND w.disabled_at = now() AS disabled
   ), notice AS (
     -- The owners' notices, written with the health change that causes them, so none
     -- is lost; the unique (endpoint, episode, kind) holds each to one, whoever sees it first. The
     -- episode is the failing_since it is about. Recovered only ends an episode that was noticed.
     INSERT INTO webhook_notices (endpoint_id, merchant_id, livemode, kind, episode, url, last_error)
     SELECT health.id, health.merchant_id, health.livemode, n.kind, n.episode, health.url, health.last_error
     FROM health CROSS JOIN LATERAL (VALUES
       ('failing', CASE WHEN (health.status = 'enabled' OR health.disabled)
                         AND now() - health.failing_since >= make_interval(secs => $20 / 1000.0)
                        THEN health.failing_since END),
       ('disabled', CASE WHEN health.disabled THEN health.failing_since END),
       ('recovered', CASE WHEN health.any_success AND health.status = 'enabled' AND EXISTS (
                            SELECT 1 FROM webhook_notices p WHERE p.endpoint_id = health.id
                              AND p.episode = health.was_failing_since AND p.kind IN ('failing', 'disabled'))
                          THEN health.was_failing_since END)
     ) AS n(kind, episode)
     WHERE n.episode IS NOT NULL
     ON CONFLICT (endpoint_id, episode, kind) DO NOTHING
   )
   SELECT 'attempt' AS kind, event_id AS id, endpoint_id, number FROM attempt
   UNION ALL
   SELECT 'disabled', id, NULL, NULL FROM health WHERE disabled`,
};

/**
 * A batch of parks: each pending delivery into its endpoint's lane, due at its time. Each delivery is
 * locked by a probe of its key and updated by that row version's ctid: with `d.status = 'pending'` on
 * the table itself, a plan made while few deliveries were pending read the whole pending index for
 * every batch once many were.
 */
const PARK_DELIVERIES = {
  name: 'dispatcher-park-deliveries',
  text: `UPDATE webhook_deliveries d
   SET lane_due_at = p.due_at, lane_retry_step = p.retry_step, lane_headers = p.headers
   FROM unnest($1::text[], $2::text[], $3::int[], $4::timestamptz[], $5::jsonb[])
        AS p(event_id, endpoint_id, retry_step, due_at, headers)
   CROSS JOIN LATERAL (SELECT ctid, status FROM webhook_deliveries x
                       WHERE x.event_id = p.event_id AND x.endpoint_id = p.endpoint_id OFFSET 0 FOR UPDATE) found
   WHERE d.ctid = found.ctid AND found.status = 'pending'`,
};

/**
 * The batch statements every delivery runs, with input that reads and writes nothing: warmPool
 * prepares them on each connection a dispatcher opens before it takes messages.
 */
export const DELIVERY_STATEMENTS: WarmUpStatement[] = [
  { ...FIND_TARGETS, values: [[], []] },
  { ...RECORD_ATTEMPTS, values: [...Array.from({ length: 18 }, () => []), 0, 0] },
  { ...PARK_DELIVERIES, values: [[], [], [], [], []] },
];

@Injectable()
export class DeliveriesRepository {
  // Every delivery reads its target and records its attempt, and parked work is written once per
  // event: batched, these are a few statements per round trip instead of one per delivery. Reads and
  // records gather for a turn of the event loop (the messages one read of the broker's socket hands
  // over, the attempts one statement's answer finishes), so two instances' half-size flows still
  // batch (docs/performance.md).
  private readonly targets = new MicroBatcher((addresses: DeliveryAddress[]) => this.findTargetRows(addresses), {
    maxBatch: MAX_BATCH,
    gatherTurn: true,
  });
  // One attempt per delivery (event and endpoint) in a batch: its statement updates each delivery once.
  // Attempts of one event to several endpoints go together (a merchant with several endpoints).
  private readonly attempts = new MicroBatcher((records: AttemptRecord[]) => this.recordAttempts(records), {
    maxBatch: MAX_BATCH,
    gatherTurn: true,
    keysOf: (record) => [`${record.eventId}:${record.endpoint.id}`],
  });
  private readonly parks = new MicroBatcher((parked: ParkedEvent[]) => this.parkDeliveries(parked), {
    maxBatch: MAX_BATCH,
    keysOf: (delivery) => [`${delivery.eventId}:${delivery.endpointId}`],
  });

  private readonly keyring: SecretsKeyring;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(WebhookDispatcherEnv) private readonly env: WebhookDispatcherEnv,
  ) {
    this.keyring = env.secretsKeyring;
  }

  /** The secret is opened per delivery, after the batch: a row that does not open fails its own delivery only. */
  async findTarget(address: DeliveryAddress): Promise<DeliveryTarget | null> {
    const row = await this.targets.submit(address);
    return row ? toTarget(row, this.keyring) : null;
  }

  /**
   * Numbers the attempt among the event's (across its endpoints) and records it, sets the status of
   * the event's delivery to the endpoint (a succeeded one stays succeeded) and, for an automatic
   * attempt, the endpoint's health. After WEBHOOK_DISABLE_AFTER of failures since `failing_since`, a
   * failed attempt disables the endpoint. Past WEBHOOK_NOTICE_AFTER, on disabling, and on a success
   * that ends a noticed episode, it writes the owners' notice (the API's sender e-mails it).
   */
  recordAttempt(attempt: AttemptRecord): Promise<RecordedAttempt> {
    return this.attempts.submit(attempt);
  }

  /**
   * Moves a delivery into its endpoint's lane (Postgres), due at `dueAt` with its retry step; the
   * broker message can be acknowledged once it resolves. A lane worker finds it by the lane index.
   */
  async park(
    eventId: string,
    endpointId: string,
    retryStep: number,
    dueAt: Date,
    headers: Record<string, string>,
  ): Promise<void> {
    await this.parks.submit({ eventId, endpointId, retryStep, dueAt, headers });
  }

  /**
   * Each address's event, its endpoint (the named one, or for a v1 message the mode's oldest) and the
   * delivery between them, in one statement for the batch; null for an event that does not exist.
   */
  private async findTargetRows(addresses: DeliveryAddress[]): Promise<(TargetRow | null)[]> {
    const rows = await sqlRows<TargetRow & { n: string }>(
      this.db,
      FIND_TARGETS.text,
      [addresses.map((address) => address.eventId), addresses.map((address) => address.endpointId)],
      FIND_TARGETS.name,
    );
    const byPosition = new Map(rows.map((row) => [Number(row.n), row]));
    return addresses.map((_, index) => byPosition.get(index + 1) ?? null);
  }

  /**
   * One statement for a batch of attempts (each of a different delivery): the events' attempt counts
   * (which number the attempts), the attempt rows, the deliveries' state, and the health of the
   * endpoints they count for, applied on top of the stored health. The events are locked in id order
   * first: batches holding deliveries of the same events to other endpoints queue, never deadlock.
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
      endpoint_id: string | null;
      number: number | null;
    }>(
      this.db,
      RECORD_ATTEMPTS.text,
      [
        records.map(() => newId('attempt')),
        records.map((r) => r.eventId),
        records.map((r) => r.endpoint.id),
        records.map((r) => r.manual),
        records.map((r) => r.startedAt),
        records.map((r) => r.url),
        records.map((r) => r.durationMs),
        records.map((r) => r.responseStatus),
        records.map((r) => r.responseBody),
        records.map((r) => r.error),
        records.map((r) => r.deliveryStatus),
        records.map((r) => r.laneRetry?.dueAt ?? null),
        records.map((r) => r.laneRetry?.retryStep ?? null),
        health.map((h) => h.endpoint.id),
        health.map((h) => h.tailFailures),
        health.map((h) => h.anySuccess),
        health.map((h) => h.tailFailingSince),
        health.map((h) => h.lastError),
        this.env.disableAfterMs,
        this.env.noticeAfterMs,
      ],
      RECORD_ATTEMPTS.name,
    );
    const numbers = new Map(
      rows.filter((row) => row.kind === 'attempt').map((row) => [`${row.id}:${row.endpoint_id}`, row.number ?? 0]),
    );
    const disabled = new Set(rows.filter((row) => row.kind === 'disabled').map((row) => row.id));
    return records.map((record) => ({
      number: numbers.get(`${record.eventId}:${record.endpoint.id}`) ?? 0,
      disabledEndpoint: record.countsForHealth && disabled.has(record.endpoint.id),
    }));
  }

  private async parkDeliveries(parked: ParkedEvent[]): Promise<void[]> {
    await sqlRows(
      this.db,
      PARK_DELIVERIES.text,
      [
        parked.map((p) => p.eventId),
        parked.map((p) => p.endpointId),
        parked.map((p) => p.retryStep),
        parked.map((p) => p.dueAt),
        parked.map((p) => JSON.stringify(p.headers)),
      ],
      PARK_DELIVERIES.name,
    );
    return parked.map(() => undefined);
  }

  /**
   * Nothing could be sent to the endpoint (disabled, deleted, secret unreadable): the delivery says why
   * and leaves the lane. `endpointId` null (a v1 message): the delivery to the mode's oldest endpoint.
   */
  async markUndelivered(eventId: string, endpointId: string | null, reason: string): Promise<void> {
    await sqlRows(
      this.db,
      `UPDATE webhook_deliveries SET undelivered_reason = $3, lane_due_at = NULL, lane_retry_step = NULL,
         status = CASE WHEN status = 'succeeded' THEN 'succeeded' ELSE 'failed' END
       WHERE event_id = $1 AND endpoint_id = COALESCE($2, (
         SELECT w.id FROM events e JOIN webhook_endpoints w ON w.merchant_id = e.merchant_id AND w.livemode = e.livemode
         WHERE e.id = $1 ORDER BY w.created_at, w.id LIMIT 1))`,
      [eventId, endpointId, reason],
    );
  }

  /**
   * A v1 message (from before several endpoints) for an event whose mode has no endpoint: the event
   * itself says why, as it did then (an event without deliveries has its own state).
   */
  async markEventUndelivered(eventId: string, reason: string): Promise<void> {
    await sqlRows(
      this.db,
      `UPDATE events SET undelivered_reason = $2,
         delivery_status = CASE WHEN delivery_status = 'succeeded' THEN 'succeeded' ELSE 'failed' END
       WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM webhook_deliveries WHERE event_id = $1)`,
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
      `UPDATE webhook_deliveries SET undelivered_reason = $2, lane_due_at = NULL, lane_retry_step = NULL,
         status = CASE WHEN status = 'succeeded' THEN 'succeeded' ELSE 'failed' END
       WHERE endpoint_id = $1 AND lane_due_at IS NOT NULL`,
      [key.id, reason],
    );
  }
}
