import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import {
  WEBHOOK_DELIVERY_REQUESTED_V2,
  parseWebhookDeliveryRequest,
  type WebhookDeliveryRequest,
  type WebhookDeliveryRequestedV2,
} from '@payhook/contracts';
import { WEBHOOK_DELIVER_ROUTING_KEY, type QueueDecision, type QueueMessageContext } from '@payhook/messaging';
import { inSpan, causingRequestId, SpanKind, withLogFields } from '@payhook/observability';
import { isDatabaseUnavailable } from '@payhook/persistence';
import { DeliverWebhookService, type DeliveryPlan } from './deliver-webhook.service';
import { DeliveriesRepository } from './deliveries.repository';
import { DeliveryMetrics } from './delivery.metrics';
import { EndpointLanesWorker } from './endpoint-lanes.worker';
import { EndpointSlots } from './endpoint-slots';

/**
 * One delivery request from the queue. The transport (RabbitMQ or Postgres, ADR 0008 and 0009) acknowledges
 * only once what this returns is carried out: after the attempt is recorded and, when it failed,
 * once its retry is confirmed in a wait queue, or once it is parked in its endpoint's lane. Work for
 * an endpoint in trouble (circuit open, or every slot busy with a request that has run a while) is
 * parked at once, so it never holds the prefetch window others need; a fast endpoint's may first
 * wait a few milliseconds for a slot, within bounds that leave room for everyone else (ADR 0007).
 */
@Controller()
export class WebhookDeliveriesController {
  constructor(
    private readonly deliver: DeliverWebhookService,
    private readonly deliveries: DeliveriesRepository,
    private readonly slots: EndpointSlots,
    private readonly lanes: EndpointLanesWorker,
    private readonly metrics: DeliveryMetrics,
  ) {}

  @EventPattern<string>(WEBHOOK_DELIVER_ROUTING_KEY)
  async deliverWebhook(@Payload() body: string, @Ctx() context: QueueMessageContext): Promise<QueueDecision> {
    const message = parseWebhookDeliveryRequest(body);
    if (!message) return { kind: 'dead-letter', reason: 'not a webhook.delivery-requested.v1 or .v2 message' };
    const headers = context.getHeaders();
    // The lines of its handling name the request that caused it, and its span continues that trace
    // (the outbox row and the message carried both here).
    return withLogFields({ requestId: causingRequestId(headers), eventId: message.eventId }, () =>
      inSpan(
        `${WEBHOOK_DELIVER_ROUTING_KEY} process`,
        { kind: SpanKind.CONSUMER, parent: headers, attributes: { 'payhook.event_id': message.eventId } },
        () => this.handle(message, headers),
      ),
    );
  }

  private async handle(message: WebhookDeliveryRequest, headers: Record<string, string>): Promise<QueueDecision> {
    try {
      const plan = await this.deliver.plan(message, message);
      switch (plan.kind) {
        case 'poison':
          return { kind: 'dead-letter', reason: plan.reason };
        case 'done':
          return { kind: 'ack' };
        case 'park':
          return await this.park(message, plan.endpointId, headers);
        case 'attempt':
          return await this.attempt(message, plan.target, headers);
      }
    } catch (error) {
      // A database outage is no fault of the message: it waits out the outage however long it lasts.
      return { kind: 'back-off', reason: String(error), counts: !isDatabaseUnavailable(error) };
    }
  }

  /** Runs the attempt in one of its endpoint's slots, or parks it when none is free (soon, for an endpoint that answers fast). */
  private async attempt(
    message: WebhookDeliveryRequest,
    target: Extract<DeliveryPlan, { kind: 'attempt' }>['target'],
    headers: Record<string, string>,
  ): Promise<QueueDecision> {
    const endpointId = target.endpoint.key.id;
    const slot = message.manual ? this.slots.takeAnyway(endpointId) : await this.slots.takeWaiting(endpointId);
    if (!slot) return this.park(message, endpointId, headers);
    try {
      const outcome = await this.deliver.attempt(message, target, 'broker', slot);
      if (outcome.kind !== 'retry') return { kind: 'ack' };
      // A retry names its endpoint, also when a v1 message (from before several endpoints) did not.
      const next: WebhookDeliveryRequestedV2 = {
        ...message,
        type: WEBHOOK_DELIVERY_REQUESTED_V2,
        endpointId,
        retryStep: outcome.retryStep,
      };
      return {
        kind: 'retry',
        content: next,
        delayMs: outcome.delayMs,
        scheduledDelayMs: outcome.baseDelayMs,
      };
    } finally {
      slot.release();
    }
  }

  /** Moves the delivery into its endpoint's lane in Postgres, due now, with its correlation; the broker can then forget it. */
  private async park(
    message: WebhookDeliveryRequest,
    endpointId: string,
    headers: Record<string, string>,
  ): Promise<QueueDecision> {
    await this.deliveries.park(message.eventId, endpointId, message.retryStep, new Date(), headers);
    this.metrics.parked.inc();
    this.lanes.parked(endpointId);
    return { kind: 'ack' };
  }
}
