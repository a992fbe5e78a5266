import type {
  DeliveryStatus,
  EndpointDeliveryView,
  EventDelivery,
  EventView,
  WebhookAttemptView,
  WebhookEvent,
} from '@payhook/contracts';

export interface EventRecord {
  id: string;
  livemode: boolean;
  /** The exact bytes sent in every attempt. */
  body: string;
  createdAt: Date;
  deliveryStatus: DeliveryStatus;
  undeliveredReason: string | null;
}

export type EventSummaryView = WebhookEvent & Omit<EventDelivery, 'attempts' | 'deliveries'>;

export function toEventSummaryView(event: EventRecord): EventSummaryView {
  return {
    ...(JSON.parse(event.body) as WebhookEvent),
    livemode: event.livemode,
    deliveryStatus: event.deliveryStatus,
    undeliveredReason: event.undeliveredReason,
  };
}

export function toEventView(
  event: EventRecord,
  deliveries: EndpointDeliveryView[],
  attempts: WebhookAttemptView[],
): EventView {
  return { ...toEventSummaryView(event), deliveries, attempts };
}
