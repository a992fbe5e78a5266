import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { SealedSecretError, sealedPrefix, signingSecretContext, type SecretsKeyring } from '@payhook/config';
import { DEFAULT_ENABLED_EVENTS, PayhookError, type EventType } from '@payhook/contracts';
import { sqlRows } from '@payhook/persistence';
import { DataSource } from 'typeorm';
import { PaymentsApiEnv } from '../config/payments-api.env';
import type { MerchantScope } from '@payhook/auth';
import type { WebhookEndpointRecord } from './webhook-endpoint.record';

/**
 * The rotated-out secret and its expiry while the overlap lasts, null after (the purger clears the
 * columns a little later: until then the row still holds it, but nothing reads it).
 */
const UNEXPIRED_PREVIOUS_SECRET_SQL = `
  CASE WHEN previous_secret_expires_at > now() THEN previous_signing_secret END AS previous_signing_secret,
  CASE WHEN previous_secret_expires_at > now() THEN previous_secret_expires_at END AS previous_secret_expires_at`;

interface EndpointRow {
  merchant_id: string;
  livemode: boolean;
  url: string;
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
}

const ENDPOINT_COLUMNS = `merchant_id, livemode, url, signing_secret, enabled_events, status, failing_since,
  consecutive_failures, last_error, disabled_at, ${UNEXPIRED_PREVIOUS_SECRET_SQL}`;

/** One pass of re-sealing (resealUnderCurrentKey). */
export interface ResealBatch {
  /** Rows sealed under the previous key that this pass looked at. */
  examined: number;
  /** Rows now sealed under the current key. */
  moved: number;
  /** Rows naming the previous key that did not open with it (changed, or copied from another row). */
  unreadable: MerchantScope[];
  /** Where the next pass starts (after this endpoint); null when nothing was examined. */
  last: MerchantScope | null;
}

/**
 * A secret that does not open means the operator's SECRETS_KEY is wrong (or SECRETS_KEY_PREVIOUS went
 * too early): 503 until the key is fixed, never a 500 and never a secret in the answer.
 */
function openOrUnavailable(keyring: SecretsKeyring, row: EndpointRow, sealed: string): string {
  try {
    return keyring.open(sealed, signingSecretContext({ merchantId: row.merchant_id, livemode: row.livemode }));
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
    return keyring.open(
      row.previous_signing_secret,
      signingSecretContext({ merchantId: row.merchant_id, livemode: row.livemode }),
    );
  } catch (error) {
    if (error instanceof SealedSecretError) return null;
    throw error;
  }
}

const toRecord = (row: EndpointRow, keyring: SecretsKeyring): WebhookEndpointRecord => ({
  merchantId: row.merchant_id,
  livemode: row.livemode,
  url: row.url,
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

  async find(scope: MerchantScope): Promise<WebhookEndpointRecord | null> {
    const rows = await sqlRows<EndpointRow>(
      this.db,
      `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE merchant_id = $1 AND livemode = $2`,
      [scope.merchantId, scope.livemode],
    );
    return rows[0] ? toRecord(rows[0], this.keyring) : null;
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
      [
        scope.merchantId,
        scope.livemode,
        url,
        this.keyring.seal(newSecret, signingSecretContext(scope)),
        enabledEvents,
        DEFAULT_ENABLED_EVENTS,
      ],
    );
    return toRecord(rows[0], this.keyring);
  }

  /**
   * `secret` signs from now on. With `previousSecretExpiresIn` seconds > 0 the secret it replaces keeps
   * signing `webhook-signature` beside it that long (moved sealed as it is); with 0 it stops at once,
   * and so does a previous secret still in its overlap from an earlier rotation.
   */
  async replaceSecret(
    scope: MerchantScope,
    secret: string,
    previousSecretExpiresIn: number,
  ): Promise<WebhookEndpointRecord | null> {
    const rows = await sqlRows<EndpointRow>(
      this.db,
      `UPDATE webhook_endpoints SET signing_secret = $3, updated_at = now(),
         previous_signing_secret = CASE WHEN $4::int > 0 THEN signing_secret END,
         previous_secret_expires_at = CASE WHEN $4::int > 0 THEN now() + make_interval(secs => $4::int) END
       WHERE merchant_id = $1 AND livemode = $2
       RETURNING ${ENDPOINT_COLUMNS}`,
      [
        scope.merchantId,
        scope.livemode,
        this.keyring.seal(secret, signingSecretContext(scope)),
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
  async resealUnderCurrentKey(after: MerchantScope | null, limit: number): Promise<ResealBatch> {
    const previous = this.keyring.previousKeyId;
    if (!previous) return { examined: 0, moved: 0, unreadable: [], last: null };
    const prefix = sealedPrefix(previous);
    const rows = await sqlRows<{
      merchant_id: string;
      livemode: boolean;
      signing_secret: string;
      previous_signing_secret: string | null;
    }>(
      this.db,
      `SELECT merchant_id, livemode, signing_secret, previous_signing_secret FROM webhook_endpoints
       WHERE (starts_with(signing_secret, $1) OR starts_with(previous_signing_secret, $1))
         AND ($2::text IS NULL OR (merchant_id, livemode) > ($2, $3))
       ORDER BY merchant_id, livemode LIMIT $4`,
      [prefix, after?.merchantId ?? null, after?.livemode ?? false, limit],
    );
    const resealed: {
      merchantId: string;
      livemode: boolean;
      was: string;
      sealed: string;
      previousWas: string | null;
      previousSealed: string | null;
    }[] = [];
    const unreadable: MerchantScope[] = [];
    for (const row of rows) {
      const scope = { merchantId: row.merchant_id, livemode: row.livemode };
      const context = signingSecretContext(scope);
      const underCurrentKey = <T extends string | null>(stored: T): T =>
        (stored?.startsWith(prefix) ? this.keyring.seal(this.keyring.open(stored, context), context) : stored) as T;
      try {
        resealed.push({
          ...scope,
          was: row.signing_secret,
          sealed: underCurrentKey(row.signing_secret),
          previousWas: row.previous_signing_secret,
          previousSealed: underCurrentKey(row.previous_signing_secret),
        });
      } catch (error) {
        if (!(error instanceof SealedSecretError)) throw error;
        unreadable.push(scope);
      }
    }
    const moved =
      resealed.length === 0
        ? []
        : await sqlRows(
            this.db,
            `UPDATE webhook_endpoints w SET signing_secret = r.sealed, previous_signing_secret = r.previous_sealed
             FROM unnest($1::text[], $2::boolean[], $3::text[], $4::text[], $5::text[], $6::text[])
                  AS r(merchant_id, livemode, was, sealed, previous_was, previous_sealed)
             WHERE w.merchant_id = r.merchant_id AND w.livemode = r.livemode AND w.signing_secret = r.was
               AND w.previous_signing_secret IS NOT DISTINCT FROM r.previous_was
             RETURNING w.merchant_id`,
            [
              resealed.map((row) => row.merchantId),
              resealed.map((row) => row.livemode),
              resealed.map((row) => row.was),
              resealed.map((row) => row.sealed),
              resealed.map((row) => row.previousWas),
              resealed.map((row) => row.previousSealed),
            ],
          );
    const last = rows.at(-1);
    return {
      examined: rows.length,
      moved: moved.length,
      unreadable,
      last: last ? { merchantId: last.merchant_id, livemode: last.livemode } : null,
    };
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
