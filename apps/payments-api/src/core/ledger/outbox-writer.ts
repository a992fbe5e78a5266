import {
  WEBHOOK_DELIVERY_REQUESTED_V2,
  WEBHOOK_ENDPOINT_DELETED_V1,
  WEBHOOK_RECOVERY_REQUESTED_V1,
  type WebhookDeliveryRequestedV2,
  type WebhookEndpointDeletedV1,
  type WebhookRecoveryRequestedV1,
} from '@payhook/contracts';
import {
  WEBHOOK_DELIVER_ROUTING_KEY,
  WEBHOOK_ENDPOINT_DELETED_ROUTING_KEY,
  WEBHOOK_RECOVER_ROUTING_KEY,
} from '@payhook/messaging';
import { outgoingMessageHeaders } from '@payhook/observability';
import type { Sql } from '@payhook/persistence';

/** What a caller says about a delivery; the message's type and time are the writer's. */
export type DeliveryRequest = Omit<WebhookDeliveryRequestedV2, 'type' | 'requestedAt'>;

/**
 * The builder of the webhook.delivery-requested.v2 message (libs/contracts): every delivery request
 * the payments-api writes to its outbox carries a payload made here, or by firstDeliveriesOutboxSql
 * with the same fields and values (event-writer.integration-spec.ts holds the two together).
 */
export function deliveryMessage(request: DeliveryRequest, requestedAt: Date): WebhookDeliveryRequestedV2 {
  return { type: WEBHOOK_DELIVERY_REQUESTED_V2, ...request, requestedAt: requestedAt.toISOString() };
}

/**
 * The outbox row of each first automatic delivery selected from `deliveries` (event_id, endpoint_id),
 * for a statement that fans events out to their deliveries and writes the rows itself (no round trip
 * of their own): deliveryMessage's fields and values (retry step 0, not manual) built in SQL, with the
 * correlation of the causing request. Placeholders from `$first` on, bound to `params` in order.
 */
export function firstDeliveriesOutboxSql(deliveries: string, first: number): { sql: string; params: unknown[] } {
  const [routingKey, type, requestedAt, headers] = [0, 1, 2, 3].map((n) => `$${first + n}`);
  return {
    sql: `INSERT INTO outbox (routing_key, message_type, payload, headers)
          SELECT ${routingKey}::text, ${type}::text,
                 json_build_object('type', ${type}::text, 'eventId', d.event_id, 'endpointId', d.endpoint_id,
                                   'retryStep', 0, 'manual', false, 'requestedAt', ${requestedAt}::text)::text,
                 ${headers}::jsonb
          FROM ${deliveries} d`,
    params: [
      WEBHOOK_DELIVER_ROUTING_KEY,
      WEBHOOK_DELIVERY_REQUESTED_V2,
      new Date().toISOString(),
      outgoingMessageHeaders(),
    ],
  };
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
   * Asks the dispatcher, which alone changes deliveries once they exist, to send the failed
   * deliveries a recover picked again (webhook.recovery-requested.v1).
   */
  async requestRecovery(request: Omit<WebhookRecoveryRequestedV1, 'type' | 'requestedAt'>): Promise<void> {
    const message: WebhookRecoveryRequestedV1 = {
      type: WEBHOOK_RECOVERY_REQUESTED_V1,
      ...request,
      requestedAt: new Date().toISOString(),
    };
    await this.insert(WEBHOOK_RECOVER_ROUTING_KEY, message);
  }

  /** Tells the dispatcher an endpoint is gone, so it ends what it was owed (webhook.endpoint-deleted.v1). */
  async endpointDeleted(deleted: Omit<WebhookEndpointDeletedV1, 'type' | 'requestedAt'>): Promise<void> {
    const message: WebhookEndpointDeletedV1 = {
      type: WEBHOOK_ENDPOINT_DELETED_V1,
      ...deleted,
      requestedAt: new Date().toISOString(),
    };
    await this.insert(WEBHOOK_ENDPOINT_DELETED_ROUTING_KEY, message);
  }

  private async insert(routingKey: string, message: { type: string }): Promise<void> {
    await this.sql(`INSERT INTO outbox (routing_key, message_type, payload, headers) VALUES ($1, $2, $3, $4)`, [
      routingKey,
      message.type,
      JSON.stringify(message),
      outgoingMessageHeaders(),
    ]);
  }
}
