/**
 * Messages on the wire between payments-api and webhook-dispatcher. A published version is never
 * edited; a change means a new type name and interface beside this one.
 */
export const WEBHOOK_DELIVERY_REQUESTED_V1 = 'webhook.delivery-requested.v1';

/** What the API wrote before several endpoints: one delivery per event, to its mode's one endpoint. */
export interface WebhookDeliveryRequestedV1 {
  type: typeof WEBHOOK_DELIVERY_REQUESTED_V1;
  eventId: string;
  /**
   * 0 for the first automatic attempt; n after n failed automatic attempts (the retry step).
   * Manual redeliveries are one attempt each and never schedule retries.
   */
  retryStep: number;
  manual: boolean;
  requestedAt: string;
}

export const WEBHOOK_DELIVERY_REQUESTED_V2 = 'webhook.delivery-requested.v2';

/** One event's delivery to one of its mode's endpoints: each endpoint on its own. */
export interface WebhookDeliveryRequestedV2 extends Omit<WebhookDeliveryRequestedV1, 'type'> {
  type: typeof WEBHOOK_DELIVERY_REQUESTED_V2;
  endpointId: string;
}

/**
 * A delivery request of either version; `endpointId` null for a v1 message, which goes to the oldest
 * endpoint of the event's mode (the one endpoint there was when it was written).
 */
export type WebhookDeliveryRequest = Omit<WebhookDeliveryRequestedV2, 'type' | 'endpointId'> & {
  endpointId: string | null;
};

const EVENT_ID = /^evt_[0-9A-Za-z]{20,64}$/;
const ENDPOINT_ID = /^we_[0-9A-Za-z]{20,64}$/;

/** Null for anything that is not a well-formed v1 or v2 message: such a message is poison. */
export function parseWebhookDeliveryRequest(raw: string): WebhookDeliveryRequest | null {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const message = value as Record<string, unknown>;
  const endpointId =
    message.type === WEBHOOK_DELIVERY_REQUESTED_V2 && typeof message.endpointId === 'string'
      ? ENDPOINT_ID.test(message.endpointId)
        ? message.endpointId
        : undefined
      : message.type === WEBHOOK_DELIVERY_REQUESTED_V1
        ? null
        : undefined;
  const valid =
    endpointId !== undefined &&
    typeof message.eventId === 'string' &&
    EVENT_ID.test(message.eventId) &&
    Number.isInteger(message.retryStep) &&
    (message.retryStep as number) >= 0 &&
    typeof message.manual === 'boolean' &&
    typeof message.requestedAt === 'string';
  if (!valid) return null;
  return {
    eventId: message.eventId as string,
    endpointId,
    retryStep: message.retryStep as number,
    manual: message.manual as boolean,
    requestedAt: message.requestedAt as string,
  };
}
