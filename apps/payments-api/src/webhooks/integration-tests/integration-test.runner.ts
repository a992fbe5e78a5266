import { Inject, Injectable, Logger, type BeforeApplicationShutdown } from '@nestjs/common';
import { WEBHOOK_HEADERS, newId, randomBase62, type WebhookAttemptView } from '@payhook/contracts';
import { computeSignature, deliveryHeaders, signWebhook } from '@payhook/signing';
import { WebhookHttpClient, type DeliveryResult } from '@payhook/webhook-http';
import { PaymentsApiEnv } from '../../platform/config/payments-api.env';
import { EventsRepository } from '../events';
import type { MerchantScope } from '@payhook/auth';
import { PaymentTransitionsService, PaymentsService } from '../../money/payments';
import { WebhookEndpointsRepository } from '../endpoints';
import { SCENARIO_NAMES, type ScenarioName, type ScenarioResult } from './integration-test.record';
import { IntegrationTestsRepository } from './integration-tests.repository';

/** The dispatcher's first attempt must be recorded within this much beyond WEBHOOK_TIMEOUT_MS. */
const FIRST_ATTEMPT_GRACE_MS = 20_000;
const POLL_MS = 100;
const STALE_SECONDS = 600;

interface Delivery {
  eventId: string;
  body: string;
  url: string;
  /** The current secret: it signs Service-Signature and the forged copies' near-misses. */
  secret: string;
  /** The rotated-out secret while its overlap lasts: genuine deliveries sign webhook-signature with it too. */
  previousSecret: { secret: string; expiresAt: Date } | null;
}

/** Why the scenarios not yet run failed when the API stopped under them: nothing is wrong with the endpoint. */
export const STOPPED_DETAIL = 'Not run: the API stopped during the test. Start the test again.';

/** The abort of a run whose API is stopping. */
class RunStopped extends Error {}

const nowSeconds = () => Math.floor(Date.now() / 1000);
const is2xx = (result: DeliveryResult) => result.ok;
const answer = (result: DeliveryResult) => result.error ?? `HTTP ${result.status}`;

/**
 * Runs the four scenarios of the integration test against the merchant's test webhook endpoint with real,
 * signed deliveries (and, for `review`, deliberately wrong ones), recording what was sent and what
 * came back. A passed run takes an approved merchant live.
 */
@Injectable()
export class IntegrationTestRunner implements BeforeApplicationShutdown {
  private readonly logger = new Logger(IntegrationTestRunner.name);
  /** Runs in flight: each can be stopped, and ends once it has recorded how it ended. */
  private readonly running = new Map<string, { stop: AbortController; ended: Promise<void> }>();

  constructor(
    private readonly runs: IntegrationTestsRepository,
    private readonly payments: PaymentsService,
    private readonly transitions: PaymentTransitionsService,
    private readonly events: EventsRepository,
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly http: WebhookHttpClient,
    @Inject(PaymentsApiEnv) private readonly env: PaymentsApiEnv,
  ) {}

  run(runId: string, scope: MerchantScope): Promise<void> {
    const stop = new AbortController();
    const ended = this.runUntilStopped(runId, scope, stop.signal).finally(() => this.running.delete(runId));
    this.running.set(runId, { stop, ended });
    return ended;
  }

  /**
   * A stopping API ends its runs as failed while the database is still open (it closes after this
   * hook), so the merchant may start another at once instead of waiting for the run to read as
   * abandoned; the scenarios already decided keep their results.
   */
  async beforeApplicationShutdown(): Promise<void> {
    const runs = [...this.running.values()];
    for (const { stop } of runs) stop.abort();
    await Promise.all(runs.map(({ ended }) => ended));
  }

  private async runUntilStopped(runId: string, scope: MerchantScope, signal: AbortSignal): Promise<void> {
    const results: ScenarioResult[] = SCENARIO_NAMES.map((name) => ({ name, status: 'pending', detail: '' }));
    const record = async (name: ScenarioName, passed: boolean, detail: string) => {
      // A stopped run's results are final: the scenario still under way when it stopped changes nothing.
      if (signal.aborted) return;
      const scenario = results.find((result) => result.name === name)!;
      scenario.status = passed ? 'passed' : 'failed';
      scenario.detail = detail;
      await this.runs.saveScenarios(runId, results);
    };
    const stopped = new Promise<never>((_, reject) =>
      signal.addEventListener('abort', () => reject(new RunStopped()), { once: true }),
    );
    try {
      // The scenario under way is left to end by itself (its requests and reads fail once the API has closed).
      await Promise.race([this.scenarios(runId, scope, record, signal), stopped]);
    } catch (error) {
      if (!(error instanceof RunStopped)) this.logger.error(`integration test ${runId} stopped: ${String(error)}`);
      for (const result of results.filter((scenario) => scenario.status === 'pending')) {
        result.status = 'failed';
        result.detail =
          error instanceof RunStopped ? STOPPED_DETAIL : 'Not run: the test stopped on an internal error.';
      }
    }
    const passed = results.every((result) => result.status === 'passed');
    await this.runs.finish(runId, passed ? 'passed' : 'failed', results);
  }

  private async scenarios(
    runId: string,
    scope: MerchantScope,
    record: (name: ScenarioName, passed: boolean, detail: string) => Promise<void>,
    signal: AbortSignal,
  ): Promise<void> {
    const delivery = await this.completion(runId, scope, record, signal);
    if (delivery) {
      await this.retries(delivery, record);
      await this.duplicates(delivery, record);
      await this.review(delivery, record);
    } else {
      for (const name of ['retries', 'duplicates', 'review'] as const) {
        await record(name, false, 'Not run: the completion scenario produced no event to deliver.');
      }
    }
  }

  /** A real test payment, completed; the webhook-dispatcher's first attempt must get a 2xx. */
  private async completion(
    runId: string,
    scope: MerchantScope,
    record: (name: ScenarioName, passed: boolean, detail: string) => Promise<void>,
    signal: AbortSignal,
  ): Promise<Delivery | null> {
    const endpoint = await this.endpoints.find(scope);
    if (!endpoint) {
      await record('completion', false, 'No test webhook endpoint is set: PUT /v1/webhook-endpoint {url} first.');
      return null;
    }
    const created = await this.payments.create(scope, `integration-test:${runId}`, {
      orderId: `itest-${runId.slice(4)}`,
      customerId: 'payhook-integration-test',
      amount: 1000,
      currency: 'KRW',
      returnUrl: this.env.BASE_URL,
    });
    const paymentId = (JSON.parse(created.body) as { data: { id: string } }).data.id;
    await this.transitions.transition(scope, paymentId, 'completed');
    const [event] = await this.events.ofPayment(scope, paymentId, 1);
    const delivery = {
      eventId: event.id,
      body: event.body,
      url: endpoint.url,
      secret: endpoint.signingSecret,
      previousSecret:
        endpoint.previousSigningSecret && endpoint.previousSecretExpiresAt
          ? { secret: endpoint.previousSigningSecret, expiresAt: endpoint.previousSecretExpiresAt }
          : null,
    };

    const first = await this.firstAttempt(
      event.id,
      endpoint.id,
      this.env.WEBHOOK_TIMEOUT_MS + FIRST_ATTEMPT_GRACE_MS,
      signal,
    );
    if (!first) {
      await record(
        'completion',
        false,
        `payment.completed ${event.id} for test payment ${paymentId} got no delivery attempt in time. Is the webhook-dispatcher running?`,
      );
      return delivery;
    }
    const ok = first.responseStatus !== null && first.responseStatus >= 200 && first.responseStatus < 300;
    const outcome = first.error ?? `HTTP ${first.responseStatus}`;
    const excerpt = first.responseBody ? `; response: ${first.responseBody.slice(0, 200)}` : '';
    await record(
      'completion',
      ok,
      ok
        ? `payment.completed ${event.id} for test payment ${paymentId} was delivered to ${endpoint.url}: ${outcome} in ${first.durationMs} ms.`
        : `payment.completed ${event.id} for test payment ${paymentId} sent to ${endpoint.url}: ${outcome}${excerpt}. ` +
            'Verify the signature over the raw body, credit the order, and answer 2xx within the timeout.',
    );
    return delivery;
  }

  /** The same event again, as a retry would send it: same id and bytes, fresh signature. */
  private async retries(
    delivery: Delivery,
    record: (name: ScenarioName, passed: boolean, detail: string) => Promise<void>,
  ) {
    const result = await this.sendGenuine(delivery);
    await record(
      'retries',
      is2xx(result),
      is2xx(result)
        ? `${delivery.eventId} sent again with a fresh signature: ${answer(result)}.`
        : `${delivery.eventId} sent again with a fresh signature: ${answer(result)}. A retried event keeps its id; ` +
            'answer 2xx and do nothing when it was already processed.',
    );
  }

  /** The same event twice at once: both must get a 2xx and the order be credited once. */
  private async duplicates(
    delivery: Delivery,
    record: (name: ScenarioName, passed: boolean, detail: string) => Promise<void>,
  ) {
    const results = await Promise.all([this.sendGenuine(delivery), this.sendGenuine(delivery)]);
    const passed = results.every(is2xx);
    await record(
      'duplicates',
      passed,
      `${delivery.eventId} delivered twice at the same moment: ${results.map(answer).join(' and ')}.` +
        (passed ? '' : ' Both must get 2xx; credit the event id once (for example with a unique constraint).'),
    );
  }

  /** Deliveries a correct endpoint refuses (spec §5.2). Each uses a new event id. */
  private async review(
    delivery: Delivery,
    record: (name: ScenarioName, passed: boolean, detail: string) => Promise<void>,
  ) {
    const t = nowSeconds();
    const cases = [
      {
        label: 'wrong signature',
        header: (body: string) => signWebhook(`whsec_${randomBase62(32)}`, body, t),
      },
      {
        label: 'timestamp 10 minutes old with a valid HMAC',
        header: (body: string) => signWebhook(delivery.secret, body, t - STALE_SECONDS),
      },
      { label: 'no Service-Signature header', header: () => undefined },
      { label: 'v1 before t', header: (body: string) => `v1=${hmac(delivery.secret, t, body)},t=${t}` },
      { label: 'uppercase hex', header: (body: string) => `t=${t},v1=${hmac(delivery.secret, t, body).toUpperCase()}` },
      { label: 'a space after the comma', header: (body: string) => `t=${t}, v1=${hmac(delivery.secret, t, body)}` },
      { label: 'no v1', header: () => `t=${t}` },
    ];
    const outcomes = await Promise.all(
      cases.map(async ({ label, header }) => {
        const forged = forgedCopy(delivery);
        const result = await this.sendForged(forged, header(forged.body));
        return { label, result };
      }),
    );
    const accepted = outcomes.filter(({ result }) => is2xx(result));
    await record(
      'review',
      accepted.length === 0,
      accepted.length === 0
        ? `All ${cases.length} forged or malformed deliveries were refused: ` +
            outcomes.map(({ label, result }) => `${label} → ${answer(result)}`).join('; ') +
            '.'
        : `Accepted with 2xx, but must be refused: ${accepted.map(({ label }) => label).join(', ')}. ` +
            'Reject anything but exactly t=<digits>,v1=<64 lowercase hex>, compare in constant time, ' +
            'and refuse a t more than 300 s from your clock.',
    );
  }

  /** Sent as the dispatcher sends it: every webhook header, signed now. */
  private sendGenuine(delivery: Delivery): Promise<DeliveryResult> {
    // A run lasts seconds: the previous secret signs only until it expires, as the dispatcher's.
    const { previousSecret } = delivery;
    const secrets =
      previousSecret && previousSecret.expiresAt > new Date()
        ? [delivery.secret, previousSecret.secret]
        : [delivery.secret];
    const headers = deliveryHeaders({ eventId: delivery.eventId, body: delivery.body, secrets });
    return this.http.post(delivery.url, delivery.body, headers);
  }

  /**
   * A review delivery carries the Service headers only. Standard Webhooks headers beside a broken
   * Service-Signature would be genuine, and an endpoint that verifies those would rightly accept it.
   */
  private sendForged(delivery: Delivery, signature: string | undefined): Promise<DeliveryResult> {
    const headers: Record<string, string> = { [WEBHOOK_HEADERS.eventId]: delivery.eventId };
    if (signature !== undefined) headers[WEBHOOK_HEADERS.signature] = signature;
    return this.http.post(delivery.url, delivery.body, headers);
  }

  /** The first attempt to the endpoint under test: another endpoint taking the event proves nothing about it. */
  private async firstAttempt(
    eventId: string,
    endpointId: string,
    withinMs: number,
    signal: AbortSignal,
  ): Promise<WebhookAttemptView | null> {
    const deadline = Date.now() + withinMs;
    while (Date.now() < deadline && !signal.aborted) {
      const first = (await this.events.attempts(eventId)).find((attempt) => attempt.endpointId === endpointId);
      if (first) return first;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    return null;
  }
}

function hmac(secret: string, t: number, body: string): string {
  return computeSignature(secret, t, body);
}

/** The event with a new id: a lenient endpoint that accepts it would credit an order that was never paid. */
function forgedCopy(delivery: Delivery): Delivery {
  const eventId = newId('event');
  const body = JSON.stringify({ ...(JSON.parse(delivery.body) as object), id: eventId });
  return { ...delivery, eventId, body };
}
