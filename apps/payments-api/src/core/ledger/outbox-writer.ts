import { WEBHOOK_DELIVERY_REQUESTED_V2, type WebhookDeliveryRequestedV2 } from '@payhook/contracts';
import { WEBHOOK_DELIVER_ROUTING_KEY } from '@payhook/messaging';
import { outgoingMessageHeaders, type MessageHeaders } from '@payhook/observability';
import type { Sql } from '@payhook/persistence';

/** What a caller says about a delivery; the message's type and time are the writer's. */
export type DeliveryRequest = Omit<WebhookDeliveryRequestedV2, 'type' | 'requestedAt'>;

/**
 * The one builder of the webhook.delivery-requested.v2 message (libs/contracts): every outbox row
 * the payments-api writes carries a payload made here, including those recover writes in SQL.
 */
export function deliveryMessage(request: DeliveryRequest, requestedAt: Date): WebhookDeliveryRequestedV2 {
  return { type: WEBHOOK_DELIVERY_REQUESTED_V2, ...request, requestedAt: requestedAt.toISOString() };
}

/**
 * Writes the outbox rows of delivery requests, in the transaction of the change they announce, each
 * with the correlation of the request that caused them (its request id and trace context).
 */
export class OutboxWriter {
  constructor(private readonly sql: Sql) {}

  /** The rows of several requests in one statement (a sweeper batch of events). */
  async enqueue(requests: readonly DeliveryRequest[]): Promise<void> {
    if (requests.length === 0) return;
    const requestedAt = new Date();
    await this.sql(
      `INSERT INTO outbox (routing_key, message_type, payload, headers) SELECT $1, $2, unnest($3::text[]), $4`,
      [
        WEBHOOK_DELIVER_ROUTING_KEY,
        WEBHOOK_DELIVERY_REQUESTED_V2,
        requests.map((request) => JSON.stringify(deliveryMessage(request, requestedAt))),
        outgoingMessageHeaders(),
      ],
    );
  }

  /**
   * For a statement that writes the rows itself, one per event it selects (recover picks every
   * failed delivery at once, without sending ids through the API): the parameters of
   * `INSERT INTO outbox (routing_key, message_type, payload, headers)`, whose payload is a message of
   * deliveryMessage with an empty eventId and endpointId that the statement fills with jsonb_set.
   */
  automaticDeliveryTemplate(): { routingKey: string; messageType: string; payload: string; headers: MessageHeaders } {
    return {
      routingKey: WEBHOOK_DELIVER_ROUTING_KEY,
      messageType: WEBHOOK_DELIVERY_REQUESTED_V2,
      payload: JSON.stringify(
        deliveryMessage({ eventId: '', endpointId: '', retryStep: 0, manual: false }, new Date()),
      ),
      headers: outgoingMessageHeaders(),
    };
  }
}
