import { Inject, Injectable } from '@nestjs/common';
import { EVENT_TYPES, PayhookError, type EventType } from '@payhook/contracts';
import { PaymentsApiEnv } from '../config/payments-api.env';
import { EventsService } from '../events/events.service';
import { isHttpUrl } from '../http/validators';
import type { ApiKeyEntity } from '../merchants/api-key.entity';
import { MerchantsService } from '../merchants/merchants.service';
import type { IntegrationTestView } from '../onboarding/integration-test.record';
import { IntegrationTestsRepository } from '../onboarding/integration-tests.repository';
import { IntegrationTestsService } from '../onboarding/integration-tests.service';
import type { WebhookEndpointRecord } from '../webhook-endpoints/webhook-endpoint.record';
import { WebhookEndpointsRepository } from '../webhook-endpoints/webhook-endpoints.repository';
import { WebhookEndpointsService } from '../webhook-endpoints/webhook-endpoints.service';
import { scopeOf, type ConsoleMerchant, type ConsoleMode } from './console-session';

export const RECENT_RUNS = 5;
/** The periods the console offers to recover (DESIGN.md §8 allows up to 30 days). */
export const RECOVER_DAYS = [1, 7, 30];

export interface DevelopersOverview {
  endpoints: Record<ConsoleMode, WebhookEndpointRecord | null>;
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
      this.endpointRecords.find(scopeOf(merchant, 'test')),
      this.endpointRecords.find(scopeOf(merchant, 'live')),
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
    events?: string[],
  ): Promise<ChangeResult> {
    if (mode === 'live' && merchant.status !== 'live') return { kind: 'refused', message: LIVE_LOCKED };
    if (!isHttpUrl(url)) {
      return { kind: 'refused', message: 'The URL must be an absolute http(s) URL of at most 2,048 characters.' };
    }
    const enabled = events?.filter((event): event is EventType => (EVENT_TYPES as readonly string[]).includes(event));
    if (events && (enabled?.length !== events.length || events.length === 0)) {
      return { kind: 'refused', message: `Choose at least one of the event types: ${EVENT_TYPES.join(', ')}.` };
    }
    return this.refusalOf(() => this.endpoints.put(scopeOf(merchant, mode), url, enabled));
  }

  async rotateSecret(
    merchant: ConsoleMerchant,
    mode: ConsoleMode,
    previousSecretExpiresIn: number,
  ): Promise<ChangeResult> {
    if (mode === 'live' && merchant.status !== 'live') return { kind: 'refused', message: LIVE_LOCKED };
    const scope = scopeOf(merchant, mode);
    if (!(await this.endpointRecords.find(scope))) {
      return { kind: 'refused', message: `Set the ${mode} webhook URL first; its signing secret is made then.` };
    }
    return this.refusalOf(() => this.endpoints.rotateSecret(scope, previousSecretExpiresIn));
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
      const { queued } = await this.events.recover(scopeOf(merchant, mode), since);
      return { kind: 'done', queued };
    } catch (error) {
      if (error instanceof PayhookError && error.code === 'recover_in_progress') {
        return { kind: 'refused', message: error.message };
      }
      throw error;
    }
  }

  /** Always in test mode, against the test webhook endpoint (DESIGN.md §6). */
  async runIntegrationTest(merchant: ConsoleMerchant): Promise<void> {
    await this.integrationTests.start(scopeOf(merchant, 'test'));
  }

  /** A refusal the merchant can act on becomes a message; anything else stays an error. */
  private async refusalOf(change: () => Promise<unknown>): Promise<ChangeResult> {
    try {
      await change();
      return { kind: 'done' };
    } catch (error) {
      if (!(error instanceof PayhookError) || !['parameter_invalid', 'resource_not_found'].includes(error.code)) {
        throw error;
      }
      return { kind: 'refused', message: error.message };
    }
  }
}
