export const EVENT_TYPES = ['payment.completed'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** The webhook body of payment.completed (spec §6.1); its bytes are fixed at creation. */
export interface PaymentCompletedEvent {
  id: string;
  type: 'payment.completed';
  createdAt: string;
  data: {
    paymentId: string;
    orderId: string;
    amount: number;
    currency: 'KRW';
    completedAt: string;
  };
}

export interface WebhookAttemptView {
  id: string;
  number: number;
  startedAt: string;
  durationMs: number;
  responseStatus: number | null;
  responseBody: string | null;
  error: string | null;
}

/** GET /v1/events/{id}: the event plus how its delivery is going. */
export interface EventView extends PaymentCompletedEvent {
  livemode: boolean;
  deliveryStatus: DeliveryStatus;
  /** Why nothing was sent (for example no endpoint for this mode), or null. */
  undeliveredReason: string | null;
  attempts: WebhookAttemptView[];
}

export const WEBHOOK_HEADERS = {
  eventId: 'Service-Event-Id',
  signature: 'Service-Signature',
} as const;

/** payhook's release, sent in the webhook User-Agent; a unit test keeps it equal to package.json. */
export const PAYHOOK_VERSION = '0.1.0';
export const WEBHOOK_USER_AGENT = `payhook-webhooks/${PAYHOOK_VERSION}`;
