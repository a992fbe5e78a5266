import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { SealedSecretError, sealedPrefix, signingSecretContext, type SecretsKeyring } from '@payhook/config';
import { DEFAULT_ENABLED_EVENTS, PayhookError, newId, type EventType } from '@payhook/contracts';
import { sqlRows, type Sql } from '@payhook/persistence';
import { DataSource } from 'typeorm';
import { PaymentsApiEnv } from '../../platform/config/payments-api.env';
import type { MerchantScope } from '@payhook/auth';
import type { WebhookEndpointRecord } from './webhook-endpoint.record';

/** Serialises the writes that count or pick a mode's endpoints; no other merchant or mode waits on it. */
const lockEndpointsOf = (sql: Sql, scope: MerchantScope) =>
  sql(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [
    `webhook-endpoints:${scope.merchantId}:${scope.livemode}`,
  ]);

/**
 * The rotated-out secret and its expiry while the overlap lasts, null after (the purger clears the
 * columns a little later: until then the row still holds it, but nothing reads it).
 */
const UNEXPIRED_PREVIOUS_SECRET_SQL = `
  CASE WHEN previous_secret_expires_at > now() THEN previous_signing_secret END AS previous_signing_secret,
  CASE WHEN previous_secret_expires_at > now() THEN previous_secret_expires_at END AS previous_secret_expires_at`;

interface EndpointRow {
  id: string;
  merchant_id: string;
  livemode: boolean;
  url: string;
  description: string | null;
  signing_secret: string;
  /** Only while its overlap lasts (ENDPOINT_COLUMNS reads an expired one as null). */
  previous_signing_secret: string | null;
  previous_secret_expires_at: Date | null;
  enabled_events: EventType[];
  status: 'enabled' | 'disabled';
  failing_since: Date | null;
  consecutive_failures: number;
  last_error: string | null;
  disabled_at: Date | null;
  created_at: Date;
}

const ENDPOINT_COLUMNS = `id, merchant_id, livemode, url, description, signing_secret, enabled_events, status,
  failing_since, consecutive_failures, last_error, disabled_at, created_at, ${UNEXPIRED_PREVIOUS_SECRET_SQL}`;

/** The endpoints of a mode, oldest first (webhook_endpoints_scope_idx): the singular route's is the first. */
const OLDEST_FIRST = 'ORDER BY created_at, id';

/** A mode has at most this many endpoints. */
export const MAX_ENDPOINTS_PER_MODE = 16;

/** A cleared health record: what PUT and PATCH leave (they re-enable). */
const ENABLED_AND_HEALTHY = `status = 'enabled', disabled_at = NULL, failing_since = NULL, consecutive_failures = 0,
  last_error = NULL`;

/** What a new endpoint or a PATCH sets; a field left undefined keeps what the endpoint has. */
export interface EndpointFields {
  url?: string;
  enabledEvents?: EventType[];
  /** Null clears it. */
  description?: string | null;
}

/** One pass of re-sealing (resealUnderCurrentKey). */
export interface ResealBatch {
  /** Rows sealed under the previous key that this pass looked at. */
  examined: number;
  /** Rows now sealed under the current key. */
  moved: number;
  /** Endpoints naming the previous key that did not open with it (changed, or copied from another row). */
  unreadable: string[];
  /** Where the next pass starts (after this endpoint id); null when nothing was examined. */
  last: string | null;
}

/** What the endpoint's sealed secrets are bound to: this endpoint alone. */
const contextOf = (row: { id: string; merchant_id: string; livemode: boolean }) =>
  signingSecretContext({ id: row.id, merchantId: row.merchant_id, livemode: row.livemode });

/**
 * A secret that does not open means the operator's SECRETS_KEY is wrong (or SECRETS_KEY_PREVIOUS went
 * too early): 503 until the key is fixed, never a 500 and never a secret in the answer.
 */
function openOrUnavailable(keyring: SecretsKeyring, row: EndpointRow, sealed: string): string {
  try {
    return keyring.open(sealed, contextOf(row));
  } catch (error) {
    if (!(error instanceof SealedSecretError)) throw error;
    throw new PayhookError(
      'service_unavailable',
      'The webhook endpoint cannot be read right now (its signing secret does not open with the configured key); retry later.',
    );
  }
}

/**
 * The rotated-out secret, or null: one that does not open (its key gone from SECRETS_KEY_PREVIOUS too
 * early) only ends its overlap early; the endpoint itself stays readable (the dispatcher does the same).
 */
function openPreviousOrNone(keyring: SecretsKeyring, row: EndpointRow): string | null {
  if (!row.previous_signing_secret) return null;
  try {
    return keyring.open(row.previous_signing_secret, contextOf(row));
  } catch (error) {
    if (error instanceof SealedSecretError) return null;
    throw error;
  }
}

const toRecord = (row: EndpointRow, keyring: SecretsKeyring): WebhookEndpointRecord => ({
  id: row.id,
  merchantId: row.merchant_id,
  livemode: row.livemode,
  url: row.url,
  description: row.description,
  // Stored sealed under SECRETS_KEY (sealed-secret.ts); the merchant sees it plain, as before.
  signingSecret: openOrUnavailable(keyring, row, row.signing_secret),
  previousSigningSecret: openPreviousOrNone(keyring, row),
  previousSecretExpiresAt: row.previous_secret_expires_at,
  enabledEvents: row.enabled_events,
  status: row.status,
  failingSince: row.failing_since,
  consecutiveFailures: row.consecutive_failures,
  lastError: row.last_error,
  disabledAt: row.disabled_at,
  createdAt: row.created_at,
});

@Injectable()
export class WebhookEndpointsRepository {
  private readonly keyring: SecretsKeyring;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(PaymentsApiEnv) env: PaymentsApiEnv,
  ) {
    this.keyring = env.secretsKeyring;
  }

  /** The ids of SECRETS_KEY and SECRETS_KEY_PREVIOUS (null when no rotation is under way). */
  get keyIds(): { current: string; previous: string | null } {
    return { current: this.keyring.currentKeyId, previous: this.keyring.previousKeyId };
  }

  /** The mode's oldest endpoint: the one the singular route and the integration test use. */
  async find(scope: MerchantScope): Promise<WebhookEndpointRecord | null> {
    const rows = await sqlRows<EndpointRow>(
      this.db,
      `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE merchant_id = $1 AND livemode = $2
       ${OLDEST_FIRST} LIMIT 1`,
      [scope.merchantId, scope.livemode],
    );
    return rows[0] ? toRecord(rows[0], this.keyring) : null;
  }

  async findById(scope: MerchantScope, id: string): Promise<WebhookEndpointRecord | null> {
    const rows = await sqlRows<EndpointRow>(
      this.db,
      `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE id = $1 AND merchant_id = $2 AND livemode = $3`,
      [id, scope.merchantId, scope.livemode],
    );
    return rows[0] ? toRecord(rows[0], this.keyring) : null;
  }

  /** The mode's endpoints oldest first, after `after` when given (keyset), up to `limit`. */
  async list(scope: MerchantScope, after: { createdAt: Date; id: string } | null, limit: number) {
    const rows = await sqlRows<EndpointRow>(
      this.db,
      `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE merchant_id = $1 AND livemode = $2
         AND ($3::timestamptz IS NULL OR (created_at, id) > ($3, $4))
       ${OLDEST_FIRST} LIMIT $5`,
      [scope.merchantId, scope.livemode, after?.createdAt ?? null, after?.id ?? '', limit],
    );
    return rows.map((row) => toRecord(row, this.keyring));
  }

  /**
   * A new endpoint of the mode with `newSecret`, enabled; 'endpoint_limit_reached' when the mode has
   * MAX_ENDPOINTS_PER_MODE already. Counted and inserted under a lock of the mode's endpoints (held
   * by `sql`'s transaction), so two creates at once cannot both take the last place.
   */
  async create(
    sql: Sql,
    scope: MerchantScope,
    fields: EndpointFields & { url: string },
    newSecret: string,
  ): Promise<WebhookEndpointRecord | 'endpoint_limit_reached'> {
    await lockEndpointsOf(sql, scope);
    const [{ count }] = await sql<{ count: number }>(
      `SELECT count(*)::int AS count FROM webhook_endpoints WHERE merchant_id = $1 AND livemode = $2`,
      [scope.merchantId, scope.livemode],
    );
    if (count >= MAX_ENDPOINTS_PER_MODE) return 'endpoint_limit_reached';
    return this.insert(sql, scope, fields, newSecret);
  }

  /**
   * The singular PUT: sets the URL, and the event types when given, of the mode's
   * oldest endpoint, enabled with a clean health record and its secret kept; with no endpoint yet,
   * creates it with `newSecret` (the default types when none are given).
   */
  async upsertOldest(
    sql: Sql,
    scope: MerchantScope,
    url: string,
    enabledEvents: EventType[] | null,
    newSecret: string,
  ): Promise<{ endpoint: WebhookEndpointRecord; created: boolean }> {
    await lockEndpointsOf(sql, scope);
    const rows = await sql<EndpointRow>(
      `UPDATE webhook_endpoints SET url = $3, enabled_events = COALESCE($4::text[], enabled_events),
         updated_at = now(), ${ENABLED_AND_HEALTHY}
       WHERE id = (SELECT id FROM webhook_endpoints WHERE merchant_id = $1 AND livemode = $2 ${OLDEST_FIRST} LIMIT 1)
       RETURNING ${ENDPOINT_COLUMNS}`,
      [scope.merchantId, scope.livemode, url, enabledEvents],
    );
    if (rows[0]) return { endpoint: toRecord(rows[0], this.keyring), created: false };
    const endpoint = await this.insert(sql, scope, { url, enabledEvents: enabledEvents ?? undefined }, newSecret);
    return { endpoint, created: true };
  }

  /**
   * PATCH: the fields given change, the others stay; like the singular PUT it
   * re-enables the endpoint with a clean health record. Null when the scope has no such endpoint.
   */
  async update(
    sql: Sql,
    scope: MerchantScope,
    id: string,
    fields: EndpointFields,
  ): Promise<WebhookEndpointRecord | null> {
    const rows = await sql<EndpointRow>(
      `UPDATE webhook_endpoints SET url = COALESCE($4, url), enabled_events = COALESCE($5::text[], enabled_events),
         description = CASE WHEN $6 THEN $7 ELSE description END, updated_at = now(), ${ENABLED_AND_HEALTHY}
       WHERE id = $1 AND merchant_id = $2 AND livemode = $3
       RETURNING ${ENDPOINT_COLUMNS}`,
      [
        id,
        scope.merchantId,
        scope.livemode,
        fields.url ?? null,
        fields.enabledEvents ?? null,
        fields.description !== undefined,
        fields.description ?? null,
      ],
    );
    return rows[0] ? toRecord(rows[0], this.keyring) : null;
  }

  /**
   * Disables the endpoint by hand (the console): nothing automatic is sent to it until it is enabled
   * again; its events are kept as failed (`endpoint_disabled`), as when payhook disables it.
   */
  async disable(sql: Sql, scope: MerchantScope, id: string): Promise<WebhookEndpointRecord | null> {
    const rows = await sql<EndpointRow>(
      `UPDATE webhook_endpoints SET status = 'disabled', disabled_at = COALESCE(disabled_at, now()), updated_at = now()
       WHERE id = $1 AND merchant_id = $2 AND livemode = $3
       RETURNING ${ENDPOINT_COLUMNS}`,
      [id, scope.merchantId, scope.livemode],
    );
    return rows[0] ? toRecord(rows[0], this.keyring) : null;
  }

  /**
   * Deletes the endpoint. Its deliveries are the dispatcher's to end (the caller tells it, through the
   * outbox); its attempts and finished deliveries stay, as the events' history. Returns the endpoint
   * as it was, or null when the scope has no such endpoint.
   */
  async delete(sql: Sql, scope: MerchantScope, id: string): Promise<WebhookEndpointRecord | null> {
    // Under the lock PUT takes: the oldest endpoint cannot go while the singular PUT picks it.
    await lockEndpointsOf(sql, scope);
    const rows = await sql<EndpointRow>(
      `DELETE FROM webhook_endpoints WHERE id = $1 AND merchant_id = $2 AND livemode = $3
       RETURNING ${ENDPOINT_COLUMNS}`,
      [id, scope.merchantId, scope.livemode],
    );
    return rows[0] ? toRecord(rows[0], this.keyring) : null;
  }

  private async insert(
    sql: Sql,
    scope: MerchantScope,
    fields: EndpointFields & { url: string },
    newSecret: string,
  ): Promise<WebhookEndpointRecord> {
    const id = newId('webhookEndpoint');
    const rows = await sql<EndpointRow>(
      `INSERT INTO webhook_endpoints (id, merchant_id, livemode, url, description, signing_secret, enabled_events)
       VALUES ($1, $2, $3, $4, $5, $6, COALESCE($7::text[], $8::text[]))
       RETURNING ${ENDPOINT_COLUMNS}`,
      [
        id,
        scope.merchantId,
        scope.livemode,
        fields.url,
        fields.description ?? null,
        this.keyring.seal(newSecret, signingSecretContext({ ...scope, id })),
        fields.enabledEvents ?? null,
        DEFAULT_ENABLED_EVENTS,
      ],
    );
    return toRecord(rows[0], this.keyring);
  }

  /**
   * `secret` signs the endpoint (`id`, or the mode's oldest when null) from now on. With
   * `previousSecretExpiresIn` seconds > 0 the secret it replaces keeps signing `webhook-signature`
   * beside it that long (moved sealed as it is); with 0 it stops at once, and so does a previous
   * secret still in its overlap from an earlier rotation.
   */
  async replaceSecret(
    sql: Sql,
    scope: MerchantScope,
    id: string | null,
    secret: string,
    previousSecretExpiresIn: number,
  ): Promise<WebhookEndpointRecord | null> {
    // The endpoint first (locked until the transaction ends): the new secret is sealed for it alone.
    const [target] = await sql<{ id: string }>(
      `SELECT id FROM webhook_endpoints WHERE merchant_id = $1 AND livemode = $2 AND ($3::text IS NULL OR id = $3)
       ${OLDEST_FIRST} LIMIT 1 FOR UPDATE`,
      [scope.merchantId, scope.livemode, id],
    );
    if (!target) return null;
    const rows = await sql<EndpointRow>(
      `UPDATE webhook_endpoints SET signing_secret = $2, updated_at = now(),
         previous_signing_secret = CASE WHEN $3::int > 0 THEN signing_secret END,
         previous_secret_expires_at = CASE WHEN $3::int > 0 THEN now() + make_interval(secs => $3::int) END
       WHERE id = $1
       RETURNING ${ENDPOINT_COLUMNS}`,
      [
        target.id,
        this.keyring.seal(secret, signingSecretContext({ ...scope, id: target.id })),
        previousSecretExpiresIn,
      ],
    );
    return rows[0] ? toRecord(rows[0], this.keyring) : null;
  }

  /** Forgets rotated-out secrets whose overlap has ended; returns how many. */
  async forgetExpiredPreviousSecrets(): Promise<number> {
    const rows = await sqlRows(
      this.db,
      `UPDATE webhook_endpoints SET previous_signing_secret = NULL, previous_secret_expires_at = NULL
       WHERE previous_secret_expires_at <= now()
       RETURNING 1`,
    );
    return rows.length;
  }

  /**
   * Re-seals under SECRETS_KEY the secrets (current and rotated-out) still sealed under
   * SECRETS_KEY_PREVIOUS of up to `limit` endpoints, the first ones in key order after `after`. One short
   * statement to read and one to write, no lock held in between: a row changed meanwhile (a rotated
   * secret, sealed under the current key already) is left as it now is.
   */
  async resealUnderCurrentKey(after: string | null, limit: number): Promise<ResealBatch> {
    const previous = this.keyring.previousKeyId;
    if (!previous) return { examined: 0, moved: 0, unreadable: [], last: null };
    const prefix = sealedPrefix(previous);
    const rows = await sqlRows<{
      id: string;
      merchant_id: string;
      livemode: boolean;
      signing_secret: string;
      previous_signing_secret: string | null;
    }>(
      this.db,
      `SELECT id, merchant_id, livemode, signing_secret, previous_signing_secret FROM webhook_endpoints
       WHERE (starts_with(signing_secret, $1) OR starts_with(previous_signing_secret, $1))
         AND ($2::text IS NULL OR id > $2)
       ORDER BY id LIMIT $3`,
      [prefix, after, limit],
    );
    const resealed: {
      id: string;
      was: string;
      sealed: string;
      previousWas: string | null;
      previousSealed: string | null;
    }[] = [];
    const unreadable: string[] = [];
    for (const row of rows) {
      const context = contextOf(row);
      const underCurrentKey = <T extends string | null>(stored: T): T =>
        (stored?.startsWith(prefix) ? this.keyring.seal(this.keyring.open(stored, context), context) : stored) as T;
      try {
        resealed.push({
          id: row.id,
          was: row.signing_secret,
          sealed: underCurrentKey(row.signing_secret),
          previousWas: row.previous_signing_secret,
          previousSealed: underCurrentKey(row.previous_signing_secret),
        });
      } catch (error) {
        if (!(error instanceof SealedSecretError)) throw error;
        unreadable.push(row.id);
      }
    }
    const moved =
      resealed.length === 0
        ? []
        : await sqlRows(
            this.db,
            `UPDATE webhook_endpoints w SET signing_secret = r.sealed, previous_signing_secret = r.previous_sealed
             FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[])
                  AS r(id, was, sealed, previous_was, previous_sealed)
             WHERE w.id = r.id AND w.signing_secret = r.was
               AND w.previous_signing_secret IS NOT DISTINCT FROM r.previous_was
             RETURNING w.id`,
            [
              resealed.map((row) => row.id),
              resealed.map((row) => row.was),
              resealed.map((row) => row.sealed),
              resealed.map((row) => row.previousWas),
              resealed.map((row) => row.previousSealed),
            ],
          );
    return { examined: rows.length, moved: moved.length, unreadable, last: rows.at(-1)?.id ?? null };
  }

  /** How many endpoints still have a secret that needs SECRETS_KEY_PREVIOUS to open (0 when it is not set). */
  async countUnderPreviousKey(): Promise<number> {
    const previous = this.keyring.previousKeyId;
    if (!previous) return 0;
    const [row] = await sqlRows<{ count: number }>(
      this.db,
      `SELECT count(*)::int AS count FROM webhook_endpoints
       WHERE starts_with(signing_secret, $1) OR starts_with(previous_signing_secret, $1)`,
      [sealedPrefix(previous)],
    );
    return row.count;
  }
}
