import type { EventType } from '@payhook/contracts';

export interface WebhookEndpointRecord {
  merchantId: string;
  livemode: boolean;
  url: string;
  signingSecret: string;
  /** The rotated-out secret while its overlap lasts (it still signs webhook-signature), else null. */
  previousSigningSecret: string | null;
  previousSecretExpiresAt: Date | null;
  enabledEvents: EventType[];
  status: 'enabled' | 'disabled';
  failingSince: Date | null;
  consecutiveFailures: number;
  lastError: string | null;
  disabledAt: Date | null;
}

/** GET /v1/webhook-endpoint (DESIGN.md §5 and §8 "Endpoint health"). */
export interface WebhookEndpointView {
  url: string;
  signingSecret: string;
  livemode: boolean;
  enabledEvents: EventType[];
  status: 'enabled' | 'disabled';
  failingSince: string | null;
  consecutiveFailures: number;
  lastError: string | null;
  disabledAt: string | null;
}

export function toWebhookEndpointView(endpoint: WebhookEndpointRecord): WebhookEndpointView {
  return {
    url: endpoint.url,
    signingSecret: endpoint.signingSecret,
    livemode: endpoint.livemode,
    enabledEvents: endpoint.enabledEvents,
    status: endpoint.status,
    failingSince: endpoint.failingSince?.toISOString() ?? null,
    consecutiveFailures: endpoint.consecutiveFailures,
    lastError: endpoint.lastError,
    disabledAt: endpoint.disabledAt?.toISOString() ?? null,
  };
}
