import type { INestApplication } from '@nestjs/common';
import { announceListening } from '@payhook/observability';

/** The dispatcher's only HTTP: its probes and metrics. */
export const WEBHOOK_DISPATCHER_LINKS = { health: '/health', ready: '/ready', metrics: '/metrics' };

/** One line, once the dispatcher listens: where its health, readiness and metrics answer. */
export function announceWebhookDispatcher(app: INestApplication): void {
  announceListening(app, 'webhook-dispatcher', WEBHOOK_DISPATCHER_LINKS);
}
