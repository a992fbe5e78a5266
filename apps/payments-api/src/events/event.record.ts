import type { DeliveryStatus, EventDelivery, EventView, PaymentEvent, WebhookAttemptView } from '@payhook/contracts';

export interface EventRecord {
  id: string;
  livemode: boolean;
  /** The exact bytes sent in every attempt. */
  body: string;
  createdAt: Date;
  deliveryStatus: DeliveryStatus;
  undeliveredReason: string | null;
}

export type EventSummaryView = PaymentEvent & Omit<EventDelivery, 'attempts'>;

export function toEventSummaryView(event: EventRecord): EventSummaryView {
  return {
    ...(JSON.parse(event.body) as PaymentEvent),
    livemode: event.livemode,
    deliveryStatus: event.deliveryStatus,
    undeliveredReason: event.undeliveredReason,
  };
}

export function toEventView(event: EventRecord, attempts: WebhookAttemptView[]): EventView {
  return { ...toEventSummaryView(event), attempts };
}
