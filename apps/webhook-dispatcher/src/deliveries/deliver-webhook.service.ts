import { Inject, Injectable } from '@nestjs/common';
import { WEBHOOK_HEADERS, type WebhookDeliveryRequestedV1 } from '@payhook/contracts';
import { signWebhook } from '@payhook/signing';
import { WebhookDispatcherEnv } from '../config/webhook-dispatcher.env';
import { DeliveriesRepository, type DeliveryTarget } from './deliveries.repository';
import { DeliveryMetrics } from './delivery.metrics';
import { nextRetryDelayMs } from './retry.policy';
import { WebhookHttpClient } from '@payhook/webhook-http';

/** What the consumer does with a message once its attempt is recorded. */
export type DeliveryOutcome =
  | { kind: 'done' }
  | { kind: 'retry'; retryStep: number; baseDelayMs: number; delayMs: number }
  | { kind: 'poison'; reason: string };

/** What the consumer should do with a message before any attempt. */
export type DeliveryPlan = { kind: 'attempt'; target: DeliveryTarget } | Exclude<DeliveryOutcome, { kind: 'retry' }>;

@Injectable()
export class DeliverWebhookService {
  constructor(
    private readonly deliveries: DeliveriesRepository,
    private readonly http: WebhookHttpClient,
    private readonly metrics: DeliveryMetrics,
    @Inject(WebhookDispatcherEnv) private readonly env: WebhookDispatcherEnv,
  ) {}

  async plan(message: WebhookDeliveryRequestedV1): Promise<DeliveryPlan> {
    const target = await this.deliveries.findTarget(message.eventId);
    if (!target) return { kind: 'poison', reason: `event ${message.eventId} does not exist` };
    // An automatic retry is pointless once any attempt (a manual one, say) has succeeded.
    if (!message.manual && target.deliveryStatus === 'succeeded') return { kind: 'done' };
    if (!target.url || !target.signingSecret) {
      await this.deliveries.markUndelivered(
        target.eventId,
        'No webhook endpoint is set for this mode; set one and redeliver the event.',
      );
      return { kind: 'done' };
    }
    return { kind: 'attempt', target };
  }

  /** One signed POST of the event's fixed bytes, recorded before the message is acknowledged. */
  async attempt(message: WebhookDeliveryRequestedV1, target: DeliveryTarget): Promise<DeliveryOutcome> {
    const url = target.url!;
    const startedAt = new Date();
    const result = await this.http.post(url, target.body, {
      [WEBHOOK_HEADERS.eventId]: target.eventId,
      // Signed afresh at every attempt, so the timestamp is always current.
      [WEBHOOK_HEADERS.signature]: signWebhook(target.signingSecret!, target.body),
    });
    this.metrics.observeAttempt(result.ok, result.durationMs, message, startedAt);

    // Manual redeliveries are one attempt each; automatic ones follow WEBHOOK_RETRY_SCHEDULE.
    const schedule = this.env.retryScheduleMs;
    const retryDelayMs = result.ok || message.manual ? null : nextRetryDelayMs(schedule, message.retryStep + 1);
    // A failed manual attempt changes nothing: the status stays whatever it is when recorded.
    const deliveryStatus = result.ok
      ? 'succeeded'
      : message.manual
        ? null
        : retryDelayMs === null
          ? 'failed'
          : 'pending';
    await this.deliveries.recordAttempt({
      eventId: target.eventId,
      url,
      startedAt,
      durationMs: result.durationMs,
      responseStatus: result.status,
      responseBody: result.responseBody,
      error: result.error,
      deliveryStatus,
    });
    if (retryDelayMs === null) return { kind: 'done' };
    return {
      kind: 'retry',
      retryStep: message.retryStep + 1,
      baseDelayMs: schedule[message.retryStep],
      delayMs: retryDelayMs,
    };
  }
}
