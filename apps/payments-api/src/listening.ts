import type { INestApplication } from '@nestjs/common';
import { announceListening } from '@payhook/observability';

/** The addresses a person starting the API opens first. */
export const PAYMENTS_API_LINKS = { API: '/v1', console: '/console', docs: '/docs', health: '/health' };

/** One line, once the API listens: where its API, console, docs and health answer. */
export function announcePaymentsApi(app: INestApplication): void {
  announceListening(app, 'payments-api', PAYMENTS_API_LINKS);
}
