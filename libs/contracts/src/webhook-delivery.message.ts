/**
 * Messages on the wire between payments-api and webhook-dispatcher. A published version is never
 * edited; a change means a new type name and interface beside this one.
 */
export const WEBHOOK_DELIVERY_REQUESTED_V1 = 'webhook.delivery-requested.v1';

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

/** Null for anything that is not a well-formed v1 message: such a message is poison. */
export function parseWebhookDeliveryRequestedV1(raw: string): WebhookDeliveryRequestedV1 | null {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const message = value as Record<string, unknown>;
  const valid =
    message.type === WEBHOOK_DELIVERY_REQUESTED_V1 &&
    typeof message.eventId === 'string' &&
    /^evt_[0-9A-Za-z]{20,64}$/.test(message.eventId) &&
    Number.isInteger(message.retryStep) &&
    (message.retryStep as number) >= 0 &&
    typeof message.manual === 'boolean' &&
    typeof message.requestedAt === 'string';
  return valid ? (message as unknown as WebhookDeliveryRequestedV1) : null;
}
