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
import { checkEndpointFields, checkWebhookEndpoint, type EndpointForm } from './console-endpoint-form';
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

export type ChangeResult = { kind: 'done' } | { kind: 'refused'; message: string };

const LIVE_LOCKED = 'Live mode opens once the integration test passes.';

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
    if (mode === 'live' && merchant.status !== 'live') return { kind: 'refused', message: LIVE_LOCKED };
    const form = checkWebhookEndpoint(url, events);
    if (form.kind === 'refused') return form;
    return this.refusalOf(() => this.endpoints.put(scopeOf(merchant, mode), url, form.fields.enabledEvents, by));
  }

  /** POST /v1/webhook-endpoints from the console: another endpoint of the mode, with its own secret. */
  async addEndpoint(
    merchant: ConsoleMerchant,
    mode: ConsoleMode,
    form: EndpointForm,
    by: AuditActor,
  ): Promise<ChangeResult> {
    if (mode === 'live' && merchant.status !== 'live') return { kind: 'refused', message: LIVE_LOCKED };
    const fields = checkEndpointFields(form, 'create');
    if (fields.kind === 'refused') return fields;
    return this.refusalOf(() => this.endpoints.create(scopeOf(merchant, mode), fields.fields, by));
  }

  /** PATCH /v1/webhook-endpoints/{id} from the console: it is enabled again with a clean health record. */
  async changeEndpoint(
    merchant: ConsoleMerchant,
    mode: ConsoleMode,
    id: string,
    form: EndpointForm,
    by: AuditActor,
  ): Promise<ChangeResult> {
    if (mode === 'live' && merchant.status !== 'live') return { kind: 'refused', message: LIVE_LOCKED };
    const fields = checkEndpointFields(form, 'update');
    if (fields.kind === 'refused') return fields;
    return this.refusalOf(() => this.endpoints.update(scopeOf(merchant, mode), id, fields.fields, by));
  }

  /** Re-enables (a PATCH of nothing: health cleared, secret kept) or disables an endpoint. */
  async setEndpointEnabled(
    merchant: ConsoleMerchant,
    mode: ConsoleMode,
    id: string,
    enabled: boolean,
    by: AuditActor,
  ): Promise<ChangeResult> {
    if (mode === 'live' && merchant.status !== 'live') return { kind: 'refused', message: LIVE_LOCKED };
    const scope = scopeOf(merchant, mode);
    return this.refusalOf(() =>
      enabled
        ? this.endpoints.update(scope, id, {}, by, 'webhook_endpoint.enabled')
        : this.endpoints.disable(scope, id, by),
    );
  }

  async rotateEndpointSecret(
    merchant: ConsoleMerchant,
    mode: ConsoleMode,
    id: string,
    previousSecretExpiresIn: number,
    by: AuditActor,
  ): Promise<ChangeResult> {
    if (mode === 'live' && merchant.status !== 'live') return { kind: 'refused', message: LIVE_LOCKED };
    return this.refusalOf(() =>
      this.endpoints.rotateSecretOf(scopeOf(merchant, mode), id, previousSecretExpiresIn, by),
    );
  }

  async deleteEndpoint(
    merchant: ConsoleMerchant,
    mode: ConsoleMode,
    id: string,
    by: AuditActor,
  ): Promise<ChangeResult> {
    if (mode === 'live' && merchant.status !== 'live') return { kind: 'refused', message: LIVE_LOCKED };
    return this.refusalOf(() => this.endpoints.delete(scopeOf(merchant, mode), id, by));
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
    if (mode === 'live' && merchant.status !== 'live') return { kind: 'refused', message: LIVE_LOCKED };
    const scope = scopeOf(merchant, mode);
    if (!(await this.endpointRecords.find(scope))) {
      return { kind: 'refused', message: `Set the ${mode} webhook URL first; its signing secret is made then.` };
    }
    return this.refusalOf(() => this.endpoints.rotateSecret(scope, previousSecretExpiresIn, by));
  }

  /** POST /v1/events/recover for the console's button: every failed event of the last `days` days, again. */
  async recover(
    merchant: ConsoleMerchant,
    mode: ConsoleMode,
    days: number,
  ): Promise<ChangeResult & { queued?: number }> {
    if (mode === 'live' && merchant.status !== 'live') return { kind: 'refused', message: LIVE_LOCKED };
    const since = new Date(Date.now() - days * 86_400_000).toISOString();
    try {
      const { queued } = await this.events.recover(scopeOf(merchant, mode), since, null);
      return { kind: 'done', queued };
    } catch (error) {
      if (error instanceof PayhookError && error.code === 'recover_in_progress') {
        return { kind: 'refused', message: error.message };
      }
      throw error;
    }
  }

  /** Always in test mode, against the test webhook endpoint. */
  async runIntegrationTest(merchant: ConsoleMerchant): Promise<void> {
    await this.integrationTests.start(scopeOf(merchant, 'test'));
  }

  /** A refusal the merchant can act on becomes a message; anything else stays an error. */
  private async refusalOf(change: () => Promise<unknown>): Promise<ChangeResult> {
    try {
      await change();
      return { kind: 'done' };
    } catch (error) {
      const actionable = ['parameter_invalid', 'resource_not_found', 'endpoint_limit_reached'];
      if (!(error instanceof PayhookError) || !actionable.includes(error.code)) {
        throw error;
      }
      return { kind: 'refused', message: error.message };
    }
  }
}
