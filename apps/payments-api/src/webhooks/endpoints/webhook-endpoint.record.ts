import type { EventType } from '@payhook/contracts';

export interface WebhookEndpointRecord {
  id: string;
  merchantId: string;
  livemode: boolean;
  url: string;
  description: string | null;
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
  createdAt: Date;
}

/** GET /v1/webhook-endpoint. */
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

/** An endpoint of /v1/webhook-endpoints: the singular view with its id, description and creation. */
export interface WebhookEndpointResourceView extends WebhookEndpointView {
  id: string;
  description: string | null;
  createdAt: string;
}

export function toWebhookEndpointResourceView(endpoint: WebhookEndpointRecord): WebhookEndpointResourceView {
  const {
    url,
    signingSecret,
    livemode,
    enabledEvents,
    status,
    failingSince,
    consecutiveFailures,
    lastError,
    disabledAt,
  } = toWebhookEndpointView(endpoint);
  return {
    id: endpoint.id,
    url,
    description: endpoint.description,
    enabledEvents,
    signingSecret,
    livemode,
    status,
    failingSince,
    consecutiveFailures,
    lastError,
    disabledAt,
    createdAt: endpoint.createdAt.toISOString(),
  };
}
