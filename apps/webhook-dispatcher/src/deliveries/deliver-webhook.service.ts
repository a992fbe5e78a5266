import { Inject, Injectable, Logger } from '@nestjs/common';
import { SealedSecretError } from '@payhook/config';
import { inSpan, type Span } from '@payhook/observability';
import { deliveryHeaders } from '@payhook/signing';
import { WebhookHttpClient, type DeliveryResult } from '@payhook/webhook-http';
import { WebhookDispatcherEnv } from '../config/webhook-dispatcher.env';
import {
  DeliveriesRepository,
  ENDPOINT_DELETED,
  ENDPOINT_DISABLED,
  NO_ENDPOINT,
  SIGNING_SECRET_UNREADABLE,
  signingSecretsOf,
  type DeliveryAddress,
  type DeliveryTarget,
  type EndpointState,
} from './deliveries.repository';
import { DeliveryMetrics } from './delivery.metrics';
import type { Slot } from './endpoint-slots';
import { nextRetryDelayMs } from './retry.policy';

/**
 * After this many automatic attempts in a row have failed, the endpoint's circuit is open: it gets
 * one attempt at a time, from its lane, and its other work waits there (ADR 0007).
 */
export const CIRCUIT_OPEN_AFTER = 3;

export const isCircuitOpen = (endpoint: Pick<EndpointState, 'consecutiveFailures'>) =>
  endpoint.consecutiveFailures >= CIRCUIT_OPEN_AFTER;

/** Which attempt a delivery is: its retry step, and whether a person asked for it. */
export interface DeliveryRequest {
  retryStep: number;
  manual: boolean;
  /** When the delivery was asked for; known for broker messages, for the queue-lag metric. */
  requestedAt?: string;
}

/** What the broker consumer does with a message once its attempt is recorded. */
export type DeliveryOutcome =
  { kind: 'done' } | { kind: 'retry'; retryStep: number; baseDelayMs: number; delayMs: number };

/** What the consumer should do with a message before any attempt. */
export type DeliveryPlan =
  | { kind: 'attempt'; target: DeliveryTarget & { endpoint: EndpointState } }
  | { kind: 'park'; endpointId: string }
  | { kind: 'done' }
  | { kind: 'poison'; reason: string };

/** Where the retry of a failed attempt waits: a broker wait queue, or the endpoint's lane in Postgres. */
export type RetryPlace = 'broker' | 'lane';

/** The endpoint's host, for the logs: never its path or query, which may carry a merchant's token. */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'invalid-url';
  }
}

@Injectable()
export class DeliverWebhookService {
  private readonly logger = new Logger(DeliverWebhookService.name);

  constructor(
    private readonly deliveries: DeliveriesRepository,
    private readonly http: WebhookHttpClient,
    private readonly metrics: DeliveryMetrics,
    @Inject(WebhookDispatcherEnv) private readonly env: WebhookDispatcherEnv,
  ) {}

  async plan(address: DeliveryAddress, request: DeliveryRequest): Promise<DeliveryPlan> {
    const { eventId } = address;
    let target: DeliveryTarget | null;
    try {
      target = await this.deliveries.findTarget(address);
    } catch (error) {
      if (!(error instanceof SealedSecretError)) throw error;
      // No retry can fix a key: the delivery fails with the reason, for recover or redeliver later.
      this.logger.error(`event ${eventId}, endpoint ${address.endpointId ?? 'oldest'}: ${SIGNING_SECRET_UNREADABLE}`);
      await this.deliveries.markUndelivered(eventId, address.endpointId, SIGNING_SECRET_UNREADABLE);
      return { kind: 'done' };
    }
    if (!target) return { kind: 'poison', reason: `event ${eventId} does not exist` };
    const { endpoint } = target;
    if (!endpoint) {
      // Deleted since the message was written; or, for a v1 message, the mode never had an endpoint.
      if (address.endpointId) await this.deliveries.markUndelivered(eventId, address.endpointId, ENDPOINT_DELETED);
      else await this.deliveries.markEventUndelivered(eventId, NO_ENDPOINT);
      return { kind: 'done' };
    }
    // Automatic work is owed only what a pending delivery says: pointless once any attempt (a manual
    // one, say) has succeeded, or once the delivery ended failed (recover makes it pending again). A v1
    // message (written before several endpoints) is owed to the oldest endpoint even without a delivery
    // row: its attempt writes one.
    const owed =
      target.deliveryStatus === 'pending' || (address.endpointId === null && target.deliveryStatus === 'none');
    if (!request.manual && !owed) return { kind: 'done' };
    // A person's redelivery always makes its one attempt; automatic work respects the endpoint's health.
    if (!request.manual && endpoint.status === 'disabled') {
      await this.deliveries.markUndelivered(eventId, endpoint.key.id, ENDPOINT_DISABLED);
      return { kind: 'done' };
    }
    if (!request.manual && isCircuitOpen(endpoint)) return { kind: 'park', endpointId: endpoint.key.id };
    return { kind: 'attempt', target: { ...target, endpoint } };
  }

  /**
   * One signed POST of the event's fixed bytes in `slot`, which is released once the endpoint has
   * answered, then recorded (with the endpoint's health) before the caller acknowledges anything.
   * A retry waits in `retryPlace`.
   */
  attempt(
    request: DeliveryRequest,
    target: DeliveryTarget & { endpoint: EndpointState },
    retryPlace: RetryPlace,
    slot: Slot,
  ): Promise<DeliveryOutcome> {
    const attributes = {
      'payhook.event_id': target.eventId,
      'payhook.payment_id': target.paymentId,
      'payhook.endpoint_id': target.endpoint.key.id,
    };
    return inSpan('webhook attempt', { attributes }, (span) =>
      this.attemptInSpan(request, target, retryPlace, slot, span),
    );
  }

  private async attemptInSpan(
    request: DeliveryRequest,
    target: DeliveryTarget & { endpoint: EndpointState },
    retryPlace: RetryPlace,
    slot: Slot,
    span: Span,
  ): Promise<DeliveryOutcome> {
    const { endpoint } = target;
    const endpointHost = hostOf(endpoint.url);
    const startedAt = new Date();
    let result: DeliveryResult;
    try {
      // Signed afresh at every attempt, so the timestamp is always current.
      const headers = deliveryHeaders({
        eventId: target.eventId,
        body: target.body,
        secrets: signingSecretsOf(endpoint),
      });
      result = await this.http.post(endpoint.url, target.body, headers);
    } finally {
      slot.release();
    }
    this.metrics.observeAttempt(result.ok, result.durationMs, request, startedAt);

    // Manual redeliveries are one attempt each; automatic ones follow WEBHOOK_RETRY_SCHEDULE.
    const schedule = this.env.retryScheduleMs;
    const retryDelayMs = result.ok || request.manual ? null : nextRetryDelayMs(schedule, request.retryStep + 1);
    // A failed manual attempt changes nothing: the status stays whatever it is when recorded.
    const deliveryStatus = result.ok
      ? 'succeeded'
      : request.manual
        ? null
        : retryDelayMs === null
          ? 'failed'
          : 'pending';
    const laneRetry =
      retryPlace === 'lane' && retryDelayMs !== null
        ? { dueAt: new Date(Date.now() + retryDelayMs), retryStep: request.retryStep + 1 }
        : null;
    const recorded = await this.deliveries.recordAttempt({
      eventId: target.eventId,
      endpoint: endpoint.key,
      manual: request.manual,
      url: endpoint.url,
      startedAt,
      durationMs: result.durationMs,
      responseStatus: result.status,
      responseBody: result.responseBody,
      error: result.error,
      deliveryStatus,
      countsForHealth: !request.manual,
      laneRetry,
    });
    span.setAttributes({
      'payhook.attempt': recorded.number,
      'server.address': endpointHost,
      ...(result.status === null ? {} : { 'http.response.status_code': result.status }),
    });
    // The attempt's outcome, then what it was about; eventId and requestId are the message's (or the
    // lane's) context already. On the line rather than assigned to the context: it is the attempt's
    // only line, and assigning makes a child logger per delivery (1.6% of the dispatcher's profile).
    this.logger.log({
      msg: `webhook attempt ${recorded.number}: ${result.ok ? 'delivered' : (result.error ?? `HTTP ${result.status}`)}`,
      attempt: recorded.number,
      responseStatus: result.status,
      durationMs: result.durationMs,
      manual: request.manual,
      paymentId: target.paymentId,
      merchantId: endpoint.key.merchantId,
      livemode: endpoint.key.livemode,
      endpointId: endpoint.key.id,
      endpointHost,
    });
    if (recorded.disabledEndpoint) {
      // Everything still owed to it is kept as failed; this event too, instead of its retry.
      await this.deliveries.failLane(endpoint.key);
      if (retryDelayMs !== null) {
        await this.deliveries.markUndelivered(target.eventId, endpoint.key.id, ENDPOINT_DISABLED);
      }
      return { kind: 'done' };
    }
    if (retryDelayMs === null || laneRetry) return { kind: 'done' };
    return {
      kind: 'retry',
      retryStep: request.retryStep + 1,
      baseDelayMs: schedule[request.retryStep],
      delayMs: retryDelayMs,
    };
  }
}
