import { Inject, Injectable } from '@nestjs/common';
import { PayhookError } from '@payhook/contracts';
import type { AuditActor } from '../../../core/audit';
import { PaymentsApiEnv } from '../../../platform/config/payments-api.env';
import { EventsService } from '../../../webhooks/events';
import { MerchantsService, type ApiKeyEntity } from '../../../accounts/merchants';
import {
  IntegrationTestsRepository,
  IntegrationTestsService,
  type IntegrationTestView,
} from '../../../webhooks/integration-tests';
import {
  MAX_ENDPOINTS_PER_MODE,
  WebhookEndpointsRepository,
  WebhookEndpointsService,
  type WebhookEndpointRecord,
} from '../../../webhooks/endpoints';
import { isPrivateHost, MAX_URL_LENGTH } from '../../../platform/http/validators';
import { checkEndpointFields, checkWebhookEndpoint, type EndpointForm } from './console-endpoint-form';
import type { DevelopersMessage } from './messages';
import { scopeOf, type ConsoleMerchant, type ConsoleMode } from '../shared/console-session';

export const RECENT_RUNS = 5;
/** The periods the console offers to recover (up to 30 days back). */
export const RECOVER_DAYS = [1, 7, 30];

export interface DevelopersOverview {
  /** Each mode's endpoints, oldest first: the first is the one the integration test uses. */
  endpoints: Record<ConsoleMode, WebhookEndpointRecord[]>;
  /** WEBHOOK_DISABLE_AFTER: how long an endpoint may fail before it is disabled. */
  disableAfterMs: number;
  keys: ApiKeyEntity[];
  runs: IntegrationTestView[];
}

/** A refusal is a message of the page's catalog: the controller says it in the reader's language. */
export type ChangeResult = { kind: 'done' } | { kind: 'refused'; refusal: DevelopersMessage };

/** What a change was about, for the words of its refusal. */
interface ChangeOf {
  mode: ConsoleMode;
  /** The endpoint it names; none for the mode's first endpoint (the one-endpoint API's). */
  id?: string;
  /** The URL it sets. */
  url?: string;
}

const LIVE_LOCKED: ChangeResult = { kind: 'refused', refusal: { key: 'liveLocked' } };

/** The developers page: webhook endpoints per mode, API keys, and the onboarding gate. */
@Injectable()
export class ConsoleDevelopersService {
  constructor(
    private readonly endpoints: WebhookEndpointsService,
    private readonly endpointRecords: WebhookEndpointsRepository,
    private readonly merchants: MerchantsService,
    private readonly integrationTests: IntegrationTestsService,
    private readonly runs: IntegrationTestsRepository,
    private readonly events: EventsService,
    @Inject(PaymentsApiEnv) private readonly env: PaymentsApiEnv,
  ) {}

  async overview(merchant: ConsoleMerchant): Promise<DevelopersOverview> {
    const [test, live, keys, runs] = await Promise.all([
      this.endpoints.list(scopeOf(merchant, 'test'), null, MAX_ENDPOINTS_PER_MODE),
      this.endpoints.list(scopeOf(merchant, 'live'), null, MAX_ENDPOINTS_PER_MODE),
      this.merchants.listApiKeys(merchant.id),
      this.runs.recent(merchant.id, RECENT_RUNS),
    ]);
    return { endpoints: { test, live }, disableAfterMs: this.env.disableAfterMs, keys, runs };
  }

  /**
   * The rules of PUT /v1/webhook-endpoint, and live mode only once the merchant is live (as for live
   * keys). `events` left out (re-enabling) keeps the endpoint's own.
   */
  async setWebhookEndpoint(
    merchant: ConsoleMerchant,
    mode: ConsoleMode,
    url: string,
    events: string[] | undefined,
    by: AuditActor,
  ): Promise<ChangeResult> {
    if (mode === 'live' && merchant.status !== 'live') return LIVE_LOCKED;
    const form = checkWebhookEndpoint(url, events);
    if (form.kind === 'refused') return form;
    return this.refusalOf(() => this.endpoints.put(scopeOf(merchant, mode), url, form.fields.enabledEvents, by), {
      mode,
      url,
    });
  }

  /** POST /v1/webhook-endpoints from the console: another endpoint of the mode, with its own secret. */
  async addEndpoint(
    merchant: ConsoleMerchant,
    mode: ConsoleMode,
    form: EndpointForm,
    by: AuditActor,
  ): Promise<ChangeResult> {
    if (mode === 'live' && merchant.status !== 'live') return LIVE_LOCKED;
    const fields = checkEndpointFields(form, 'create');
    if (fields.kind === 'refused') return fields;
    return this.refusalOf(() => this.endpoints.create(scopeOf(merchant, mode), fields.fields, by), {
      mode,
      url: fields.fields.url,
    });
  }

  /** PATCH /v1/webhook-endpoints/{id} from the console: it is enabled again with a clean health record. */
  async changeEndpoint(
    merchant: ConsoleMerchant,
    mode: ConsoleMode,
    id: string,
    form: EndpointForm,
    by: AuditActor,
  ): Promise<ChangeResult> {
    if (mode === 'live' && merchant.status !== 'live') return LIVE_LOCKED;
    const fields = checkEndpointFields(form, 'update');
    if (fields.kind === 'refused') return fields;
    return this.refusalOf(() => this.endpoints.update(scopeOf(merchant, mode), id, fields.fields, by), {
      mode,
      id,
      url: fields.fields.url,
    });
  }

  /** Re-enables (a PATCH of nothing: health cleared, secret kept) or disables an endpoint. */
  async setEndpointEnabled(
    merchant: ConsoleMerchant,
    mode: ConsoleMode,
    id: string,
    enabled: boolean,
    by: AuditActor,
  ): Promise<ChangeResult> {
    if (mode === 'live' && merchant.status !== 'live') return LIVE_LOCKED;
    const scope = scopeOf(merchant, mode);
    return this.refusalOf(
      () =>
        enabled
          ? this.endpoints.update(scope, id, {}, by, 'webhook_endpoint.enabled')
          : this.endpoints.disable(scope, id, by),
      { mode, id },
    );
  }

  async rotateEndpointSecret(
    merchant: ConsoleMerchant,
    mode: ConsoleMode,
    id: string,
    previousSecretExpiresIn: number,
    by: AuditActor,
  ): Promise<ChangeResult> {
    if (mode === 'live' && merchant.status !== 'live') return LIVE_LOCKED;
    return this.refusalOf(
      () => this.endpoints.rotateSecretOf(scopeOf(merchant, mode), id, previousSecretExpiresIn, by),
      { mode, id },
    );
  }

  async deleteEndpoint(
    merchant: ConsoleMerchant,
    mode: ConsoleMode,
    id: string,
    by: AuditActor,
  ): Promise<ChangeResult> {
    if (mode === 'live' && merchant.status !== 'live') return LIVE_LOCKED;
    return this.refusalOf(() => this.endpoints.delete(scopeOf(merchant, mode), id, by), { mode, id });
  }

  /** One endpoint of the merchant's mode, for a confirmation page; null when there is no such endpoint. */
  endpoint(merchant: ConsoleMerchant, mode: ConsoleMode, id: string): Promise<WebhookEndpointRecord | null> {
    return this.endpointRecords.findById(scopeOf(merchant, mode), id);
  }

  async rotateSecret(
    merchant: ConsoleMerchant,
    mode: ConsoleMode,
    previousSecretExpiresIn: number,
    by: AuditActor,
  ): Promise<ChangeResult> {
    if (mode === 'live' && merchant.status !== 'live') return LIVE_LOCKED;
    const scope = scopeOf(merchant, mode);
    if (!(await this.endpointRecords.find(scope))) {
      return { kind: 'refused', refusal: { key: 'refused.urlFirst', values: { mode } } };
    }
    return this.refusalOf(() => this.endpoints.rotateSecret(scope, previousSecretExpiresIn, by), { mode });
  }

  /** POST /v1/events/recover for the console's button: every failed event of the last `days` days, again. */
  async recover(
    merchant: ConsoleMerchant,
    mode: ConsoleMode,
    days: number,
  ): Promise<ChangeResult & { queued?: number }> {
    if (mode === 'live' && merchant.status !== 'live') return LIVE_LOCKED;
    const since = new Date(Date.now() - days * 86_400_000).toISOString();
    try {
      const { queued } = await this.events.recover(scopeOf(merchant, mode), since, null);
      return { kind: 'done', queued };
    } catch (error) {
      if (error instanceof PayhookError && error.code === 'recover_in_progress') {
        return { kind: 'refused', refusal: { key: 'refused.recoverRunning' } };
      }
      throw error;
    }
  }

  /** Always in test mode, against the test webhook endpoint. */
  async runIntegrationTest(merchant: ConsoleMerchant): Promise<void> {
    await this.integrationTests.start(scopeOf(merchant, 'test'));
  }

  /** A refusal the merchant can act on becomes a message; anything else stays an error. */
  private async refusalOf(change: () => Promise<unknown>, of: ChangeOf): Promise<ChangeResult> {
    try {
      await change();
      return { kind: 'done' };
    } catch (error) {
      const refusal = error instanceof PayhookError ? this.refusalFor(error, of) : null;
      if (!refusal) throw error;
      return { kind: 'refused', refusal };
    }
  }

  /** The endpoints service words its refusals in the API's English; the page says them from its catalog. */
  private refusalFor(error: PayhookError, of: ChangeOf): DevelopersMessage | null {
    if (error.code === 'endpoint_limit_reached') {
      return { key: 'refused.endpointLimit', values: { max: MAX_ENDPOINTS_PER_MODE } };
    }
    if (error.code === 'resource_not_found') {
      // The endpoint named is gone (deleted meanwhile), or the mode has none to rotate yet.
      return of.id
        ? { key: 'refused.noSuchEndpoint', values: { id: of.id } }
        : { key: 'refused.urlFirst', values: { mode: of.mode } };
    }
    if (error.code === 'parameter_invalid' && of.url !== undefined) return this.urlRefusal(of.url, of.mode);
    return null;
  }

  /**
   * Which of the endpoints service's URL rules (after the DTO's, which the form checked) a refused URL
   * broke, in the service's order; null for a rule the console does not know, which stays an error.
   */
  private urlRefusal(url: string, mode: ConsoleMode): DevelopersMessage | null {
    const parsed = new URL(url);
    if (parsed.username || parsed.password) return { key: 'refused.urlCredentials' };
    if (!this.env.allowPrivateWebhookUrls) {
      if (mode === 'live' && parsed.protocol !== 'https:') return { key: 'refused.urlHttps' };
      if (isPrivateHost(parsed.hostname)) return { key: 'refused.urlPrivate' };
    }
    if (parsed.href.length > MAX_URL_LENGTH) return { key: 'refused.urlLength', values: { max: MAX_URL_LENGTH } };
    return null;
  }
}
