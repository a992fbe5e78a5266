import { Inject, Injectable } from '@nestjs/common';
import { EVENT_TYPES, PayhookError, type EventType } from '@payhook/contracts';
import type { AuditActor } from '../../../core/audit/audit-entry';
import { PaymentsApiEnv } from '../../../platform/config/payments-api.env';
import { EventsService } from '../../../webhooks/events/events.service';
import { isHttpUrl } from '../../../platform/http/validators';
import type { ApiKeyEntity } from '../../../accounts/merchants/api-key.entity';
import { MerchantsService } from '../../../accounts/merchants/merchants.service';
import type { IntegrationTestView } from '../../../webhooks/integration-tests/integration-test.record';
import { IntegrationTestsRepository } from '../../../webhooks/integration-tests/integration-tests.repository';
import { IntegrationTestsService } from '../../../webhooks/integration-tests/integration-tests.service';
import type { WebhookEndpointRecord } from '../../../webhooks/endpoints/webhook-endpoint.record';
import {
  MAX_ENDPOINTS_PER_MODE,
  WebhookEndpointsRepository,
} from '../../../webhooks/endpoints/webhook-endpoints.repository';
import { WebhookEndpointsService } from '../../../webhooks/endpoints/webhook-endpoints.service';
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
const DESCRIPTION_MAX = 200;

/** The rules of an endpoint's URL and event types, and live mode only once the merchant is live. */
function checkEndpointForm(
  merchant: ConsoleMerchant,
  mode: ConsoleMode,
  url: string,
  events?: string[],
): { kind: 'ok'; enabledEvents: EventType[] | undefined } | { kind: 'refused'; message: string } {
  if (mode === 'live' && merchant.status !== 'live') return { kind: 'refused', message: LIVE_LOCKED };
  if (!isHttpUrl(url)) {
    return {
      kind: 'refused',
      message: 'The URL must be an absolute http(s) URL of at most 2,048 characters, without spaces.',
    };
  }
  const enabled = events?.filter((event): event is EventType => (EVENT_TYPES as readonly string[]).includes(event));
  if (events && (enabled?.length !== events.length || events.length === 0)) {
    return { kind: 'refused', message: `Choose at least one of the event types: ${EVENT_TYPES.join(', ')}.` };
  }
  return { kind: 'ok', enabledEvents: enabled };
}

/** What the console's add and edit forms of an endpoint hold. */
export interface EndpointForm {
  url: string;
  description: string;
  events: string[];
}

/** The form's fields as the API takes them (a blank description: none), or why they cannot be. */
function checkEndpointFields(
  merchant: ConsoleMerchant,
  mode: ConsoleMode,
  form: EndpointForm,
):
  | { kind: 'ok'; fields: { url: string; enabledEvents: EventType[] | undefined; description: string | null } }
  | { kind: 'refused'; message: string } {
  const checked = checkEndpointForm(merchant, mode, form.url, form.events);
  if (checked.kind === 'refused') return checked;
  const description = form.description.trim();
  // One line, as the API takes it: owners read it in e-mails about the endpoint.
  if (/[\p{C}\p{Zl}\p{Zp}]/u.test(description) || [...description].length > DESCRIPTION_MAX) {
    return {
      kind: 'refused',
      message: `A description is one line of at most ${DESCRIPTION_MAX} printable characters.`,
    };
  }
  return {
    kind: 'ok',
    fields: {
      url: form.url,
      enabledEvents: checked.enabledEvents,
      description: description === '' ? null : description,
    },
  };
}

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
    const form = checkEndpointForm(merchant, mode, url, events);
    if (form.kind === 'refused') return form;
    return this.refusalOf(() => this.endpoints.put(scopeOf(merchant, mode), url, form.enabledEvents, by));
  }

  /** POST /v1/webhook-endpoints from the console: another endpoint of the mode, with its own secret. */
  async addEndpoint(
    merchant: ConsoleMerchant,
    mode: ConsoleMode,
    form: EndpointForm,
    by: AuditActor,
  ): Promise<ChangeResult> {
    const fields = checkEndpointFields(merchant, mode, form);
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
    const fields = checkEndpointFields(merchant, mode, form);
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
