import { Injectable } from '@nestjs/common';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { MAX_IN_FLIGHT_PER_ENDPOINT } from './endpoint-slots';

/** Prometheus metrics of the dispatcher, served on DISPATCHER_PORT /metrics. */
@Injectable()
export class DeliveryMetrics {
  readonly registry = new Registry();

  private readonly attempts = new Counter({
    name: 'payhook_webhook_attempts_total',
    help: 'Webhook delivery attempts by outcome and kind',
    labelNames: ['outcome', 'kind'] as const,
    registers: [this.registry],
  });

  private readonly attemptDuration = new Histogram({
    name: 'payhook_webhook_attempt_duration_seconds',
    help: 'Duration of one webhook delivery attempt',
    labelNames: ['outcome'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });

  private readonly queueLag = new Histogram({
    name: 'payhook_webhook_queue_lag_seconds',
    help: 'Time from the delivery request (completion or redeliver) to the start of its first attempt',
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [this.registry],
  });

  readonly poisonMessages = new Counter({
    name: 'payhook_webhook_poison_messages_total',
    help: 'Messages sent to the dead-letter queue',
    registers: [this.registry],
  });

  readonly parked = new Counter({
    name: 'payhook_webhook_parked_total',
    help: "Deliveries moved into their endpoint's lane (circuit open, or every slot for it busy)",
    registers: [this.registry],
  });

  /** How close endpoints run to their slot limit; a count above it would be a broken limit (redeliveries aside). */
  readonly endpointSlotsInUse = new Histogram({
    name: 'payhook_webhook_endpoint_slots_in_use',
    help: `Slots of its endpoint in use on this instance once an attempt has taken one (limit ${MAX_IN_FLIGHT_PER_ENDPOINT}; a redelivery may go past it)`,
    buckets: [1, MAX_IN_FLIGHT_PER_ENDPOINT / 2, MAX_IN_FLIGHT_PER_ENDPOINT - 1, MAX_IN_FLIGHT_PER_ENDPOINT],
    registers: [this.registry],
  });

  /**
   * The limit as the endpoint sees it: counted by the HTTP client from a request's start until its
   * response is read or it failed, not by the slots that enforce the limit, so a slot released
   * before its request finished shows here as a start above the limit. No endpoint label (unbounded).
   */
  readonly webhookRequestsInFlight = new Histogram({
    name: 'payhook_webhook_requests_in_flight_per_endpoint',
    help: `Webhook requests to its endpoint URL in flight on this instance as each one starts (limit ${MAX_IN_FLIGHT_PER_ENDPOINT} per endpoint; a redelivery may go past it)`,
    buckets: [1, MAX_IN_FLIGHT_PER_ENDPOINT / 2, MAX_IN_FLIGHT_PER_ENDPOINT - 1, MAX_IN_FLIGHT_PER_ENDPOINT],
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'payhook_dispatcher_' });
  }

  observeAttempt(
    ok: boolean,
    durationMs: number,
    message: { retryStep: number; manual: boolean; requestedAt?: string },
    startedAt: Date,
  ): void {
    const outcome = ok ? 'succeeded' : 'failed';
    this.attempts.inc({ outcome, kind: message.manual ? 'manual' : message.retryStep === 0 ? 'first' : 'retry' });
    this.attemptDuration.observe({ outcome }, durationMs / 1000);
    // Retries wait on purpose; only first and manual attempts say how far behind the queue is.
    if (message.retryStep === 0 && message.requestedAt !== undefined) {
      this.queueLag.observe(Math.max(0, startedAt.getTime() - Date.parse(message.requestedAt)) / 1000);
    }
  }
}
