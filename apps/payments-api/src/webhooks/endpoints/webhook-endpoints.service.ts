import { Inject, Injectable } from '@nestjs/common';
import { EVENT_TYPES, randomBase62, type EventType } from '@payhook/contracts';
import { AuditLog, type AuditAction, type AuditActor, type AuditEntry } from '../../core/audit';
import { Ledger } from '../../core/ledger';
import { PaymentsApiEnv } from '../../platform/config/payments-api.env';
import { isPrivateHost, MAX_URL_LENGTH } from '../../platform/http/validators';
import type { MerchantScope } from '@payhook/auth';
import { WebhookEndpointException } from './webhook-endpoint.exception';
import type { WebhookEndpointRecord } from './webhook-endpoint.record';
import {
  MAX_ENDPOINTS_PER_MODE,
  WebhookEndpointsRepository,
  type EndpointFields,
} from './webhook-endpoints.repository';

/** `whsec_` + 32 base62 characters (≈190 bits). */
const newSigningSecret = () => `whsec_${randomBase62(32)}`;

/** In the order of EVENT_TYPES without repeats. */
const inTypeOrder = (enabledEvents: EventType[]) => EVENT_TYPES.filter((type) => enabledEvents.includes(type));

/**
 * A merchant's webhook endpoints, up to MAX_ENDPOINTS_PER_MODE per mode, each with its
 * own secret, event types and health. The singular route of §5 and §8 works on the mode's oldest.
 */
@Injectable()
export class WebhookEndpointsService {
  constructor(
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly audit: AuditLog,
    private readonly ledger: Ledger,
    @Inject(PaymentsApiEnv) private readonly env: PaymentsApiEnv,
  ) {}

  /** The mode's oldest endpoint (the singular route's). */
  async get(scope: MerchantScope): Promise<WebhookEndpointRecord> {
    const endpoint = await this.endpoints.find(scope);
    if (!endpoint) throw this.notSet(scope);
    return endpoint;
  }

  /**
   * The singular PUT: sets the oldest endpoint, or creates it. Setting an endpoint does not by itself
   * send older events; left out, `enabledEvents` of an existing endpoint stay.
   */
  async put(scope: MerchantScope, url: string, enabledEvents: EventType[] | undefined, by: AuditActor) {
    url = this.acceptedUrl(scope, url);
    const { endpoint } = await this.audit.audited(
      // Audited as what it did: the mode's first endpoint is created, later ones updated.
      ({ endpoint, created }: { endpoint: WebhookEndpointRecord; created: boolean }) =>
        this.entry(scope, by, created ? 'webhook_endpoint.created' : 'webhook_endpoint.updated')(endpoint),
      (sql) =>
        this.endpoints.upsertOldest(
          sql,
          scope,
          url,
          enabledEvents ? inTypeOrder(enabledEvents) : null,
          newSigningSecret(),
        ),
    );
    return endpoint;
  }

  /** The new secret signs every attempt from now on, retries of older events included (the oldest endpoint). */
  async rotateSecret(scope: MerchantScope, previousSecretExpiresIn: number, by: AuditActor) {
    const endpoint = await this.audit.audited(this.entry(scope, by, 'signing_secret.rotated'), (sql) =>
      this.endpoints.replaceSecret(sql, scope, null, newSigningSecret(), previousSecretExpiresIn),
    );
    if (!endpoint) throw this.notSet(scope);
    return endpoint;
  }

  async create(scope: MerchantScope, fields: EndpointFields & { url: string }, by: AuditActor) {
    fields = { ...fields, url: this.acceptedUrl(scope, fields.url) };
    const created = await this.audit.audited(this.entry(scope, by, 'webhook_endpoint.created'), (sql) =>
      this.endpoints.create(sql, scope, this.normalised(fields), newSigningSecret()),
    );
    if (created === 'endpoint_limit_reached') {
      throw new WebhookEndpointException(
        'endpoint_limit_reached',
        `A mode has at most ${MAX_ENDPOINTS_PER_MODE} webhook endpoints; delete one first.`,
      );
    }
    return created;
  }

  async getById(scope: MerchantScope, id: string): Promise<WebhookEndpointRecord> {
    return (await this.endpoints.findById(scope, id)) ?? this.notFound(id);
  }

  list(scope: MerchantScope, after: { createdAt: Date; id: string } | null, limit: number) {
    return this.endpoints.list(scope, after, limit);
  }

  /** The fields given change; the endpoint is enabled again with a clean health record, like the singular PUT. */
  /** `action`: webhook_endpoint.enabled when the console's Enable button asks (a PATCH of nothing). */
  async update(
    scope: MerchantScope,
    id: string,
    fields: EndpointFields,
    by: AuditActor,
    action: AuditAction = 'webhook_endpoint.updated',
  ): Promise<WebhookEndpointRecord> {
    if (fields.url !== undefined) fields = { ...fields, url: this.acceptedUrl(scope, fields.url) };
    const updated = await this.audit.audited(this.entry(scope, by, action), (sql) =>
      this.endpoints.update(sql, scope, id, this.normalised(fields)),
    );
    return updated ?? this.notFound(id);
  }

  /** By hand, from the console: re-enabled by a PATCH (or the singular PUT, for the oldest). */
  async disable(scope: MerchantScope, id: string, by: AuditActor): Promise<WebhookEndpointRecord> {
    const disabled = await this.audit.audited(this.entry(scope, by, 'webhook_endpoint.disabled'), (sql) =>
      this.endpoints.disable(sql, scope, id),
    );
    return disabled ?? this.notFound(id);
  }

  /**
   * Deletes the endpoint with its audit entry and a webhook.endpoint-deleted.v1 in the outbox, in one
   * transaction: the dispatcher, which alone changes deliveries, ends what it was still owed
   * (`endpoint_deleted`), and hears of it even if this process stops right after (its sweep also
   * finds what a deleted endpoint is owed, should the message be lost).
   */
  async delete(scope: MerchantScope, id: string, by: AuditActor): Promise<WebhookEndpointRecord> {
    const entry = this.entry(scope, by, 'webhook_endpoint.deleted');
    const deleted = await this.ledger.write(async (tx) => {
      const endpoint = await this.endpoints.delete(tx.sql, scope, id);
      if (!endpoint) return null;
      await tx.outbox.endpointDeleted({
        endpointId: endpoint.id,
        merchantId: scope.merchantId,
        livemode: scope.livemode,
      });
      await this.audit.record(tx.sql, entry(endpoint)!);
      return endpoint;
    });
    return deleted ?? this.notFound(id);
  }

  async rotateSecretOf(scope: MerchantScope, id: string, previousSecretExpiresIn: number, by: AuditActor) {
    const endpoint = await this.audit.audited(this.entry(scope, by, 'signing_secret.rotated'), (sql) =>
      this.endpoints.replaceSecret(sql, scope, id, newSigningSecret(), previousSecretExpiresIn),
    );
    return endpoint ?? this.notFound(id);
  }

  /** The audit entry of a change that happened (an endpoint came back); none when nothing changed. */
  private entry(scope: MerchantScope, by: AuditActor, action: AuditAction) {
    return (result: WebhookEndpointRecord | 'endpoint_limit_reached' | null): AuditEntry | null =>
      result === null || result === 'endpoint_limit_reached'
        ? null
        : { ...by, merchantId: scope.merchantId, action, target: result.id };
  }

  private normalised<F extends EndpointFields>(fields: F): F {
    return fields.enabledEvents ? { ...fields, enabledEvents: inTypeOrder(fields.enabledEvents) } : fields;
  }

  /**
   * The URL as stored and shown: the parser's own form (`URL.href`: a lower-case host, a path of at
   * least `/`, percent-encoded), so nothing but the URL is ever read out of it. Throws when it may
   * not be a target.
   */
  private acceptedUrl(scope: MerchantScope, raw: string): string {
    const url = new URL(raw);
    this.checkTarget(scope, url);
    // Percent-encoding and punycode lengthen what was typed: the stored form keeps the limit.
    if (url.href.length > MAX_URL_LENGTH) {
      throw new WebhookEndpointException(
        'parameter_invalid',
        `url must be at most ${MAX_URL_LENGTH} characters as a URL parser writes it (non-ASCII percent-encoded).`,
        'url',
      );
    }
    return url.href;
  }

  private checkTarget(scope: MerchantScope, url: URL): void {
    const { username, password } = url;
    // fetch refuses a URL with credentials, and stored they would be shown in clear to every viewer.
    if (username || password) {
      throw new WebhookEndpointException(
        'parameter_invalid',
        'url must not contain a user name or password: authenticate webhooks by their signature.',
        'url',
      );
    }
    if (this.env.allowPrivateWebhookUrls) return;
    if (scope.livemode && url.protocol !== 'https:') {
      throw new WebhookEndpointException('parameter_invalid', 'url must use https with a live key.', 'url');
    }
    // Names are checked after DNS at every delivery; a private address written out is refused now.
    if (isPrivateHost(url.hostname)) {
      throw new WebhookEndpointException(
        'parameter_invalid',
        'url must not point at a loopback, private or link-local address.',
        'url',
      );
    }
  }

  private notFound(id: string): never {
    throw new WebhookEndpointException('resource_not_found', `No such webhook endpoint: ${id}.`, 'id');
  }

  private notSet(scope: MerchantScope): WebhookEndpointException {
    const mode = scope.livemode ? 'live' : 'test';
    return new WebhookEndpointException(
      'resource_not_found',
      `No webhook endpoint is set for ${mode} mode yet: PUT /v1/webhook-endpoint {url} first.`,
    );
  }
}
